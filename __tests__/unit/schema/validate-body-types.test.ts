import { ApplicationError } from '../../../lib/errors';
import { createBodyValidator, type ValidateMode } from '../../../lib/schema/validate-body';
import { everyTypeRegistry } from './every-type';
import { UNPARSEABLE_TEMPORALS } from '../../helpers/temporal-errors';

const registry = everyTypeRegistry();
const validator = createBodyValidator(registry, registry.contentType('api::thing.thing'));
const CREATE: ValidateMode = { action: 'create', draft: false };
const CREATE_DRAFT: ValidateMode = { action: 'create', draft: true };
const UPDATE: ValidateMode = { action: 'update', draft: false };
const base = { name: 'ok', part: { label: 'p' } };
/** What create adds to `base`: defaults, and [] for optional repeatables and zones. */
const DEFAULTS = { count: 5, flag: false, parts: [], zone: [] };

function errorOf(data: unknown, mode: ValidateMode): { message: string; details: Record<string, unknown> } {
  try {
    validator.validate(data, mode);
  } catch (e) {
    if (e instanceof ApplicationError && e.name === 'ValidationError' && e.status === 400) {
      return JSON.parse(JSON.stringify({ message: e.message, details: e.details }));
    }
    throw e;
  }
  throw new Error('expected a ValidationError');
}

const field = (path: string[], message: string, value: unknown) => ({ path, message, name: 'ValidationError', value });
const one = (path: string[], message: string, value: unknown) => ({ message, details: { errors: [field(path, message, value)] } });

describe('body validator: stored forms', () => {
  it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['numbers cast from strings (yup)', { count: '7', ratio: ' 1.5 ', price: 3 }, { count: 7, ratio: 1.5, price: 3 }],
    ['booleans cast from "TRUE" / 0', { flag: 'TRUE' }, { flag: true }],
    ['booleans cast from 0', { flag: 0 }, { flag: false }],
    ['date keeps the leading yyyy-MM-dd', { day: '2024-02-29T10:00:00Z' }, { day: '2024-02-29' }],
    ['time HH:mm', { at: '10:30' }, { at: '10:30:00.000' }],
    ['time HH:mm:ss.S', { at: '23:59:58.5' }, { at: '23:59:58.500' }],
    ['datetime with offset to UTC ISO', { when: '2024-01-01T10:00:00+02:00' }, { when: '2024-01-01T08:00:00.000Z' }],
    ['datetime date only', { when: '2024-01-01' }, { when: '2024-01-01T00:00:00.000Z' }],
    ['timestamp from epoch milliseconds', { stamp: 1700000000000 }, { stamp: '2023-11-14T22:13:20.000Z' }],
    ['biginteger from a digit string', { big: '00123' }, { big: '123' }],
    ['biginteger from an integer', { big: -12 }, { big: '-12' }],
    ['json is any JSON', { meta: { a: [1, { b: null }], s: 'x' } }, { meta: { a: [1, { b: null }], s: 'x' } }],
    ['blocks', { content: [{ type: 'paragraph', children: [{ type: 'text', text: 'hi' }] }] }, { content: [{ type: 'paragraph', children: [{ type: 'text', text: 'hi' }] }] }],
    ['enumeration', { size: 'm' }, { size: 'm' }],
    ['private password kept', { secret: 'pw' }, { secret: 'pw' }],
    ['email, uid and regex', { email: 'a@b.co', slug: 'a-b_c.~', code: 'ABC' }, { email: 'a@b.co', slug: 'a-b_c.~', code: 'ABC' }],
    ['empty string passes an optional regex', { code: '' }, { code: '' }],
    ['nulls clear optional attributes', { text: null, day: null, meta: null, cover: null }, { text: null, day: null, meta: null, cover: null }],
    ['relations and media pass untouched', { owner: 'doc1', friends: { connect: [{ documentId: 'a', locale: 'fr', status: 'draft', position: { before: 'b' } }], disconnect: [{ id: 3 }] }, photos: ['1', { id: 2, url: '/x.png' }] }, { owner: 'doc1', friends: { connect: [{ documentId: 'a', locale: 'fr', status: 'draft', position: { before: 'b' } }], disconnect: [{ id: 3 }] }, photos: ['1', { id: 2, url: '/x.png' }] }],
    ['zone items keep __component and id', { zone: [{ __component: 'parts.note', day: '2024-01-01', id: 4 }] }, { zone: [{ __component: 'parts.note', day: '2024-01-01', id: 4 }] }],
    ['repeatable items keep their id', { parts: [{ label: 'a', id: 1 }, { label: 'b', qty: '2' }] }, { parts: [{ label: 'a', id: 1 }, { label: 'b', qty: 2 }] }],
    ['publishedAt, locale and localizations are dropped', { publishedAt: '2020-01-01', locale: 'fr', localizations: [] }, {}],
  ])('create: %s', (_label, extra, expected) => {
    expect(validator.validate({ ...base, ...extra }, CREATE)).toEqual({ ...base, ...DEFAULTS, ...expected });
  });

  it('update keeps only the keys sent (no defaults) and a component id, not its documentId', () => {
    expect(validator.validate({ part: { label: 'p', id: 3, documentId: 'x' } }, UPDATE)).toEqual({ part: { label: 'p', id: 3 } });
  });

  it('returns a new object and leaves the input alone', () => {
    const input = { ...base, meta: { a: 1 }, count: '3' };
    const snapshot = JSON.parse(JSON.stringify(input));
    const out = validator.validate(input, CREATE);
    expect(input).toEqual(snapshot);
    expect(out.meta).not.toBe(input.meta);
  });
});

describe('body validator: field errors', () => {
  it.each<[string, Record<string, unknown>, ValidateMode, { message: string; details: Record<string, unknown> }]>([
    ['min', { ...base, count: 0 }, CREATE, one(['count'], 'count must be greater than or equal to 1', 0)],
    ['integer', { ...base, count: 1.5 }, CREATE, one(['count'], 'count must be an integer', 1.5)],
    ['NaN cast', { ...base, ratio: true }, CREATE, one(['ratio'], 'ratio must be a `number` type, but the final value was: `NaN` (cast from the value `true`).', null)],
    ['minLength', { ...base, name: 'x' }, CREATE, one(['name'], 'name must be at least 2 characters', 'x')],
    ['maxLength applies to drafts', { ...base, name: 'x'.repeat(11) }, CREATE_DRAFT, one(['name'], 'name must be at most 10 characters', 'x'.repeat(11))],
    ['user regex', { ...base, code: 'abc' }, CREATE, one(['code'], 'code must match the following: "/^[A-Z]{3}$/"', 'abc')],
    ['empty email', { ...base, email: '' }, CREATE, one(['email'], 'email cannot be empty', '')],
    ['bad email', { ...base, email: 'a@' }, CREATE, one(['email'], 'email must be a valid email', 'a@')],
    ['uid format', { ...base, slug: 'a b' }, CREATE, one(['slug'], 'slug must match the following: "/^[A-Za-z0-9-_.~]*$/"', 'a b')],
    ['biginteger', { ...base, big: '1.5' }, CREATE, one(['big'], 'big must match the configured type. The validated value was: `"1.5"`.', '1.5')],
    ['enumeration', { ...base, size: 'xl' }, CREATE, one(['size'], 'size must be one of the following values: s, m, l, ', 'xl')],
    ['blocks must be an array', { ...base, content: 'text' }, CREATE, one(['content'], 'content must be a `array` type, but the final value was: `"text"`.', 'text')],
    ['repeatable min', { ...base, parts: [{ label: 'a' }] }, CREATE, one(['parts'], 'parts field must have at least 2 items', [{ label: 'a' }])],
    ['repeatable null', { ...base, parts: null }, CREATE, one(['parts'], 'parts must be a `array` type, but the final value was: `null`.', null)],
    ['required component missing', { name: 'ok' }, CREATE, one(['part'], 'part must be a `object` type, but the final value was: `null`.', null)],
    ['required attribute in a component', { name: 'ok', part: { qty: 1 } }, CREATE, one(['part', 'label'], 'part.label must be a `string` type, but the final value was: `null`.', null)],
    ['repeatable item path', { ...base, parts: [{ label: 'a' }, { label: 'b', qty: 'x' }] }, CREATE, one(['parts', '1', 'qty'], 'parts[1].qty must be a `number` type, but the final value was: `NaN` (cast from the value `"x"`).', null)],
    ['zone max', { ...base, zone: [1, 2, 3].map(() => ({ __component: 'parts.note' })) }, CREATE, one(['zone'], 'zone field must have less than or equal to 2 items', [1, 2, 3].map(() => ({ __component: 'parts.note' })))],
    ['zone component not allowed here', { ...base, zone: [{ __component: 'parts.unused' }] }, CREATE, one(['zone', '0', '__component'], 'zone[0].__component must be one of the following values: parts.part, parts.note', 'parts.unused')],
    ['zone item validated as its component', { ...base, zone: [{ __component: 'parts.part' }] }, CREATE, one(['zone', '0', 'label'], 'zone[0].label must be a `string` type, but the final value was: `null`.', null)],
    ['required null on update', { name: null }, UPDATE, one(['name'], 'name must be a `string` type, but the final value was: `null`.', null)],
  ])('%s', (_label, data, mode, expected) => {
    expect(errorOf(data, mode)).toEqual(expected);
  });

  it('reports every field error in attribute order, "N errors occurred"', () => {
    expect(errorOf({ flag: 'maybe', part: { label: 'p' }, count: 'x', name: 5 }, CREATE)).toEqual({
      message: '3 errors occurred',
      details: {
        errors: [
          field(['name'], 'name must be a `string` type, but the final value was: `5`.', 5),
          field(['count'], 'count must be a `number` type, but the final value was: `NaN` (cast from the value `"x"`).', null),
          field(['flag'], 'flag must be a `boolean` type, but the final value was: `"maybe"`.', 'maybe'),
        ],
      },
    });
  });

  it.each(UNPARSEABLE_TEMPORALS)('unparseable %s: a 400 with empty details', (_label, extra, message) => {
    expect(errorOf({ ...base, ...extra }, CREATE)).toEqual({ message, details: {} });
  });

  it('drafts skip required, minimums and formats', () => {
    expect(validator.validate({ name: 'x', code: 'abc', email: 'nope', count: 0, parts: [{ label: 'a' }] }, CREATE_DRAFT)).toEqual({
      name: 'x', code: 'abc', email: 'nope', count: 0, flag: false, parts: [{ label: 'a' }], zone: [],
    });
  });

  it('update does not require what is not sent', () => {
    expect(validator.validate({ text: 'x' }, UPDATE)).toEqual({ text: 'x' });
  });
});

describe('body validator: values from host-app calls', () => {
  it('accepts Date objects for temporal attributes', () => {
    const at = new Date('2024-05-06T07:08:09.010Z');
    expect(validator.validate({ ...base, day: at, at, when: at, stamp: at }, CREATE)).toMatchObject({
      day: '2024-05-06', at: '07:08:09.010', when: '2024-05-06T07:08:09.010Z', stamp: '2024-05-06T07:08:09.010Z',
    });
  });

  it('refuses an invalid Date', () => {
    expect(errorOf({ ...base, when: new Date('nope') }, CREATE)).toEqual({
      message: 'Invalid format, expected a timestamp or an ISO date', details: {},
    });
  });
});
