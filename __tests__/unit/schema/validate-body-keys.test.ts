import { ApplicationError } from '../../../lib/errors';
import { createBodyValidator, MAX_BODY_DEPTH, printValue, readDataPayload, uniqueError } from '../../../lib/schema/validate-body';
import { compileTypeValidators } from '../../../lib/schema/validate-body/compile-validators';
import { everyTypeRegistry } from './every-type';

const registry = everyTypeRegistry();
const validator = createBodyValidator(registry, registry.contentType('api::thing.thing'));
const person = createBodyValidator(registry, registry.contentType('api::person.person'));
const CREATE = { action: 'create', draft: false } as const;
const base = { name: 'ok', part: { label: 'p' } };

function thrown(fn: () => unknown): { status: number; name: string; message: string; details: unknown } {
  try {
    fn();
  } catch (e) {
    if (e instanceof ApplicationError) return JSON.parse(JSON.stringify({ status: e.status, name: e.name, message: e.message, details: e.details }));
    throw e;
  }
  throw new Error('expected an ApplicationError');
}
const keyError = (key: string, path?: string | null) => ({
  status: 400,
  name: 'ValidationError',
  message: `Invalid key ${key}`,
  details: path === undefined ? { key, source: 'body' } : { key, path, source: 'body' },
});

describe('body validator: keys', () => {
  it.each<[string, Record<string, unknown>, ReturnType<typeof keyError>]>([
    ['id at the root (no path)', { ...base, id: 1 }, keyError('id')],
    ['documentId at the root (no path)', { ...base, documentId: 'x' }, keyError('documentId')],
    ['createdAt', { ...base, createdAt: 'x' }, keyError('createdAt', 'createdAt')],
    ['updatedBy', { ...base, updatedBy: 1 }, keyError('updatedBy', 'updatedBy')],
    ['non-writable before unknown, whatever the order', { color: 1, ...base, updatedAt: 'x' }, keyError('updatedAt', 'updatedAt')],
    ['unknown', { ...base, color: 'red' }, keyError('color', null)],
    ['unknown inside a component', { ...base, part: { label: 'p', color: 1 } }, keyError('color', null)],
    ['unknown inside a repeatable item', { ...base, parts: [{ label: 'a' }, { label: 'b', nope: 1 }] }, keyError('nope', null)],
    ['unknown inside a zone item', { ...base, zone: [{ __component: 'parts.note', nope: 1 }] }, keyError('nope', null)],
    ['__component outside a zone', { ...base, part: { label: 'p', __component: 'parts.part' } }, keyError('__component', null)],
    ['constructor (never looked up on the prototype)', { ...base, constructor: 1 }, keyError('constructor', null)],
    ['toString', { ...base, toString: 1 }, keyError('toString', null)],
    ['unknown key in a relation payload', { ...base, friends: { connect: ['a'], nope: [] } }, keyError('nope', null)],
    ['unknown key in a relation item', { ...base, owner: { documentId: 'a', name: 'x' } }, keyError('name', null)],
  ])('%s', (_label, data, expected) => {
    expect(thrown(() => validator.validate(data, CREATE))).toEqual(expected);
  });

  it('locale is an unknown key on a type that is not localized', () => {
    expect(thrown(() => person.validate({ locale: 'fr' }, CREATE))).toEqual(keyError('locale', null));
  });

  it('publishedAt is dropped on every type', () => {
    expect(person.validate({ name: 'a', publishedAt: null }, CREATE)).toEqual({ name: 'a' });
  });

  it.each([
    ['__proto__ at the root', '{"name":"ok","part":{"label":"p"},"__proto__":{"polluted":1}}'],
    ['__proto__ inside json', '{"name":"ok","part":{"label":"p"},"meta":{"a":{"__proto__":{"polluted":1}}}}'],
  ])('%s is refused and pollutes nothing', (_label, json) => {
    expect(thrown(() => validator.validate(JSON.parse(json), CREATE))).toEqual(keyError('__proto__', null));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('a body nested deeper than the limit is a 400', () => {
    let meta: unknown = 'leaf';
    for (let i = 0; i < MAX_BODY_DEPTH + 5; i++) meta = { a: meta };
    expect(thrown(() => validator.validate({ ...base, meta }, CREATE))).toMatchObject({ status: 400, name: 'ValidationError', details: {} });
    expect(thrown(() => readDataPayload({ data: { meta } }))).toMatchObject({ status: 400, name: 'ValidationError' });
  });

  it('a deep but reasonable json value passes', () => {
    let meta: unknown = 'leaf';
    for (let i = 0; i < 20; i++) meta = [meta];
    expect(validator.validate({ ...base, meta }, CREATE).meta).toEqual(meta);
  });
});

describe('body validator: relation and media shapes', () => {
  it.each<[string, Record<string, unknown>]>([
    ['documentId string', { owner: 'abc' }],
    ['row id', { owner: 3 }],
    ['null', { owner: null, friends: null }],
    ['array of documentIds', { friends: ['a', 'b'] }],
    ['empty array', { friends: [] }],
    ['connect as one string (Strapi looks it up)', { friends: { connect: 'x' } }],
    ['set of items', { friends: { set: [{ documentId: 'a' }, { id: 2 }, 'c'] } }],
    ['positional connect', { friends: { connect: [{ documentId: 'a', position: { start: true } }, { documentId: 'b', position: { after: 'a' } }] } }],
    ['options', { friends: { connect: ['a'], options: { strict: false } } }],
    ['bare item object', { owner: { documentId: 'a', locale: null } }],
    ['media id', { cover: 1 }],
    ['media numeric string', { cover: '12' }],
    ['media object with id', { cover: { id: 1, url: '/u.png' } }],
    ['media list', { photos: [1, '2', { id: 3 }] }],
    ['media set', { photos: { set: [{ id: 3 }] } }],
    ['relation inside a component', { part: { label: 'p', person: 'abc', picture: 4 } }],
  ])('accepts %s (passed through untouched)', (_label, extra) => {
    const out = validator.validate({ ...base, ...extra }, CREATE);
    for (const [k, v] of Object.entries(extra)) expect(out[k]).toEqual(v);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['boolean', { owner: true }, 'owner'],
    ['float id', { owner: 1.5 }, 'owner'],
    ['nested array', { friends: [['a']] }, 'friends'],
    ['item without documentId or id', { friends: [{ locale: 'fr' }] }, 'friends'],
    ['bad status', { friends: { connect: [{ documentId: 'a', status: 'live' }] } }, 'friends'],
    ['bad position', { friends: { connect: [{ documentId: 'a', position: 'first' }] } }, 'friends'],
    ['media name', { cover: 'photo.png' }, 'cover'],
    ['several files in a single media', { cover: [1, 2] }, 'cover'],
    ['media object without id', { photos: [{ url: 'x' }] }, 'photos'],
    ['in a component', { part: { label: 'p', picture: 'x' } }, 'part.picture'],
  ])('refuses %s', (_label, extra, path) => {
    expect(thrown(() => validator.validate({ ...base, ...extra }, CREATE))).toEqual({
      status: 400, name: 'ValidationError', message: `Invalid relation payload for ${path}`, details: {},
    });
  });
});

describe('readDataPayload', () => {
  const missing = { status: 400, name: 'ValidationError', message: 'Missing "data" payload in the request body', details: {} };
  it.each([
    ['no body', undefined],
    ['a string body', 'title=hello'],
    ['an array body', [{ data: {} }]],
    ['no data key', { title: 'x' }],
    ['data null', { data: null }],
    ['data a string', { data: 'title' }],
    ['data a number', { data: 3 }],
  ])('%s: Missing "data" payload', (_label, body) => {
    expect(thrown(() => readDataPayload(body))).toEqual(missing);
  });

  it('returns data (objects, and arrays for the validator to refuse)', () => {
    expect(readDataPayload({ data: { a: 1 } })).toEqual({ a: 1 });
    expect(readDataPayload({ data: [1] })).toEqual([1]);
  });
});

describe('uniqueError and printValue', () => {
  it('builds the recorded unique error', () => {
    expect(thrown(() => { throw uniqueError(['email'], 'ann@example.com'); })).toEqual({
      status: 400,
      name: 'ValidationError',
      message: 'This attribute must be unique',
      details: { errors: [{ path: ['email'], message: 'This attribute must be unique', name: 'ValidationError', value: 'ann@example.com' }] },
    });
  });

  it.each<[unknown, string]>([
    ['yes', '"yes"'],
    [12345, '12345'],
    [null, 'null'],
    [NaN, 'NaN'],
    [-0, '-0'],
    [{ a: 1, b: ['x'] }, '{\n  "a": "1",\n  "b": [\n    "\\"x\\""\n  ]\n}'],
  ])('printValue(%p)', (value, printed) => {
    expect(printValue(value, true)).toBe(printed);
  });
});

describe('dynamic zone items without a usable component', () => {
  it('echo the locale given, after the field errors', () => {
    const e = thrown(() => validator.validate({ ...base, zone: [{ __component: 'parts.nope' }] }, { ...CREATE, locale: 'fr' }));
    expect(e.message).toBe('2 errors occurred');
    expect((e.details as { errors: { path: string[]; message: string; value: Record<string, unknown> }[] }).errors[1]).toEqual({
      path: [],
      message: 'Invalid relations',
      name: 'ValidationError',
      value: { ...base, zone: [{ __component: 'parts.nope' }], count: 5, flag: false, parts: [], locale: 'fr', publishedAt: null },
    });
  });
});

describe('compilation', () => {
  it('compiles once per (registry, type): later validators reuse the same ajv functions', () => {
    const thing = registry.contentType('api::thing.thing');
    const first = compileTypeValidators(registry, thing);
    expect(compileTypeValidators(registry, thing)).toBe(first);
    expect([...first.keys()].sort()).toEqual(['create', 'create-draft', 'update', 'update-draft']);
    const other = everyTypeRegistry();
    expect(compileTypeValidators(other, other.contentType('api::thing.thing'))).not.toBe(first);
  });
});
