import request from 'supertest';
import { createTestApp, expectStrapiError, type TestApp } from '../../helpers/http';

/**
 * Dates, date-times, times and big integers are stored as strings (docs/storage-model.md) and MongoDB compares
 * strings by code units (https://www.mongodb.com/docs/manual/reference/bson-type-comparison-order/). Range filters
 * and sorts on them must still follow time and numeric order: operands and stored values share one normalised
 * form (UTC ISO with milliseconds, four-digit years; canonical decimal strings), and big integers are compared
 * by sign and length before their digits.
 */
let t: TestApp;
type Json = Record<string, unknown>;

const GADGETS: Json[] = [
  { name: 'neg100', big: '-100', when: '2024-01-01T10:00:00Z', day: '2024-02-29', at: '09:00' },
  { name: 'neg9', big: '-9', when: '2024-01-01T10:00:00.500Z', day: '0999-12-31', at: '10:00:00.5' },
  { name: 'neg10', big: '-10', when: '2024-01-01T12:00:00+03:00', day: '1000-01-01', at: '23:59:59.999' },
  { name: 'zero', big: '-000', when: '0999-06-01T00:00:00Z', day: '0050-06-15', at: '00:00' },
  { name: 'nine', big: 9, when: '0050-01-01T00:00:00Z', day: '9999-12-31', at: '09:30:00' },
  { name: 'ten', big: '10', when: '9999-12-31T23:59:59.999Z', day: '2024-01-01', at: '10:00' },
  { name: 'seven', big: '007', when: '2024-01-01T09:59:59.999-00:00', day: '2023-12-31', at: '09:59:59.999' },
  { name: 'huge', big: '99999999999999999999', when: null, day: null, at: null },
  { name: 'tiny', big: '-99999999999999999999' },
  { name: 'none', big: null },
];

beforeAll(async () => {
  t = await createTestApp();
  for (const data of GADGETS) {
    const res = await request(t.app).post('/api/gadgets').send({ data });
    if (res.status !== 201) throw new Error(`${String(data.name)}: ${res.status} ${res.text}`);
  }
});
afterAll(() => t.engine.close());

async function names(query: string, page = '&pagination[pageSize]=100'): Promise<string[]> {
  const res = await request(t.app).get(`/api/gadgets?${query}${page}`);
  if (res.status !== 200) throw new Error(`${query}: ${res.status} ${res.text}`);
  return (res.body.data as Json[]).map((g) => g.name as string);
}
const sortedNames = async (query: string, page?: string): Promise<string[]> => names(query, page);
const asSet = async (query: string): Promise<string[]> => (await names(query)).sort();

describe('big integers compare as numbers', () => {
  it('are stored in canonical form (no leading zeros, no -0, numbers as strings)', async () => {
    const res = await request(t.app).get('/api/gadgets?filters[name][$in][0]=zero&filters[name][$in][1]=nine&filters[name][$in][2]=seven&sort=id');
    expect((res.body.data as Json[]).map((g) => g.big)).toEqual(['0', '9', '7']);
    expect(await asSet('filters[big][$eq]=0007')).toEqual(['seven']);
    expect(await asSet('filters[big][$in][0]=-0&filters[big][$in][1]=+9')).toEqual(['nine', 'zero']);
  });

  it.each<[string, string[]]>([
    ['filters[big][$lt]=10', ['neg10', 'neg100', 'neg9', 'nine', 'seven', 'tiny', 'zero']],
    ['filters[big][$lte]=10', ['neg10', 'neg100', 'neg9', 'nine', 'seven', 'ten', 'tiny', 'zero']],
    ['filters[big][$gt]=9', ['huge', 'ten']],
    ['filters[big][$gte]=-9', ['huge', 'neg9', 'nine', 'seven', 'ten', 'zero']],
    ['filters[big][$lt]=-9', ['neg10', 'neg100', 'tiny']],
    ['filters[big][$gt]=-10', ['huge', 'neg9', 'nine', 'seven', 'ten', 'zero']],
    ['filters[big][$lte]=-100', ['neg100', 'tiny']],
    ['filters[big][$gt]=0', ['huge', 'nine', 'seven', 'ten']],
    ['filters[big][$lt]=0', ['neg10', 'neg100', 'neg9', 'tiny']],
    ['filters[big][$between][0]=-10&filters[big][$between][1]=9', ['neg10', 'neg9', 'nine', 'seven', 'zero']],
    ['filters[big][$gt]=99999999999999999998', ['huge']],
    ['filters[big][$lt]=-99999999999999999998', ['tiny']],
    ['filters[$not][big][$lt]=0', ['huge', 'nine', 'none', 'seven', 'ten', 'zero']],
  ])('%s', async (query, expected) => {
    expect(await asSet(query)).toEqual(expected);
  });

  it('sort: numeric order, nulls first ascending and last descending', async () => {
    const asc = ['none', 'tiny', 'neg100', 'neg10', 'neg9', 'zero', 'seven', 'nine', 'ten', 'huge'];
    expect(await sortedNames('sort=big:asc')).toEqual(asc);
    expect(await sortedNames('sort=big:desc')).toEqual([...asc].reverse());
    expect(await sortedNames('sort=big:asc&fields[0]=name&pagination[page]=2&pagination[pageSize]=3', '')).toEqual(asc.slice(3, 6));
  });
});

describe('date-times: every value in UTC with milliseconds, four-digit years', () => {
  it.each<[string, string[]]>([
    // 10:00:00Z, 10:00:00.500Z, 12:00+03:00 = 09:00Z, 09:59:59.999-00:00
    ['filters[when][$gte]=2024-01-01T10:00:00Z', ['neg100', 'neg9', 'ten']],
    ['filters[when][$gt]=2024-01-01T10:00:00.000Z', ['neg9', 'ten']],
    ['filters[when][$lt]=2024-01-01T10:00:00', ['neg10', 'nine', 'seven', 'zero']],
    ['filters[when][$lte]=2024-01-01T11:00:00%2B01:00', ['neg10', 'neg100', 'nine', 'seven', 'zero']],
    ['filters[when][$between][0]=2024-01-01T08:59:00-00:00&filters[when][$between][1]=2024-01-01T10:00:00.1Z', ['neg10', 'neg100', 'seven']],
    ['filters[when][$lt]=1000-01-01', ['nine', 'zero']],
    ['filters[when][$gt]=9999-12-31T23:59:59.998Z', ['ten']],
  ])('%s', async (query, expected) => {
    expect(await asSet(query)).toEqual(expected);
  });

  it('sort follows time, years < 1000 first', async () => {
    expect(await sortedNames('sort=when&filters[when][$notNull]=true')).toEqual(['nine', 'zero', 'neg10', 'seven', 'neg100', 'neg9', 'ten']);
  });

  it('years outside 0000-9999 are refused in writes and in filters (their ISO strings sort out of order)', async () => {
    const epoch10000 = Date.UTC(10000, 0, 1);
    for (const when of [epoch10000, String(epoch10000), '9999-12-31T23:00:00-05:00', '0000-01-01T00:00:00+01:00']) {
      const res = await request(t.app).post('/api/gadgets').send({ data: { name: 'out', when } });
      expectStrapiError(res, 400, 'ValidationError', 'Invalid date: the year must be from 0000 to 9999');
    }
    const res = await request(t.app).get('/api/gadgets?filters[when][$lt]=9999-12-31T23:00:00-05:00');
    expectStrapiError(res, 400, 'ValidationError');
  });
});

describe('dates and times', () => {
  it.each<[string, string[]]>([
    ['filters[day][$lt]=1000-01-01', ['neg9', 'zero']],
    ['filters[day][$gte]=0999-12-31&filters[day][$lte]=2024-01-01', ['neg10', 'neg9', 'seven', 'ten']],
    ['filters[day][$gt]=2024-02-28', ['neg100', 'nine']],
    ['filters[at][$gte]=09:30', ['neg10', 'neg9', 'nine', 'seven', 'ten']],
    ['filters[at][$lt]=10:00:00.5', ['neg100', 'nine', 'seven', 'ten', 'zero']],
    ['filters[at][$between][0]=09:59:59.999&filters[at][$between][1]=10:00', ['seven', 'ten']],
  ])('%s', async (query, expected) => {
    expect(await asSet(query)).toEqual(expected);
  });

  it('sort: years < 1000 first; times in day order', async () => {
    expect(await sortedNames('sort=day&filters[day][$notNull]=true')).toEqual(['zero', 'neg9', 'neg10', 'seven', 'ten', 'neg100', 'nine']);
    expect(await sortedNames('sort=at:desc&filters[at][$notNull]=true')).toEqual(['neg10', 'neg9', 'ten', 'seven', 'nine', 'neg100', 'zero']);
  });
});
