import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateTypes, type AttributeSchema, type ContentTypeSchema } from '../../../lib';
import { runCli } from '../../../lib/cli';

const type = (attributes: Record<string, AttributeSchema>, extra: Partial<ContentTypeSchema> = {}): ContentTypeSchema => ({
  kind: 'collectionType',
  info: { singularName: 'thing', pluralName: 'things' },
  options: { draftAndPublish: false },
  attributes,
  ...extra,
});
const person = type({ name: { type: 'string' } }, { info: { singularName: 'person', pluralName: 'people' } });
const components = { 'parts.a': { attributes: { x: { type: 'string', required: true } } }, 'parts.b': { attributes: {} } };

/** The member line generated for one attribute of a type without draft & publish, in `typeName`'s declaration. */
function member(attribute: AttributeSchema, typeName = 'Thing'): string {
  const text = generateTypes({ contentTypes: [type({ field: attribute }), person], components });
  const declaration = new RegExp(`^export type ${typeName} = \\{\n[^]*?\n\\};$`, 'm').exec(text)?.[0] ?? '';
  return /^ {2}field\??: .*;$/m.exec(declaration)?.[0].trim() ?? '(absent)';
}

it.each([
  [{ type: 'string' }, 'field: string | null;'],
  [{ type: 'string', required: true }, 'field: string;'],
  [{ type: 'richtext' }, 'field: string | null;'],
  [{ type: 'integer', required: true }, 'field: number;'],
  [{ type: 'decimal' }, 'field: number | null;'],
  [{ type: 'biginteger' }, 'field: string | null;'],
  [{ type: 'boolean' }, 'field: boolean | null;'],
  [{ type: 'date' }, 'field: string | null;'],
  [{ type: 'timestamp' }, 'field: string | null;'],
  [{ type: 'json', required: true }, 'field: JSONValue;'],
  [{ type: 'blocks' }, 'field: Blocks | null;'],
  [{ type: 'enumeration', enum: ['a', 'b'] }, 'field: "a" | "b" | null;'],
  [{ type: 'password' }, '(absent)'],
  [{ type: 'string', private: true }, '(absent)'],
  [{ type: 'media' }, 'field?: UploadFile | null;'],
  [{ type: 'media', multiple: true }, 'field?: UploadFile[];'],
  [{ type: 'relation', relation: 'manyToOne', target: 'api::person.person' }, 'field?: Person | null;'],
  [{ type: 'relation', relation: 'oneToMany', target: 'api::person.person' }, 'field?: Person[];'],
  [{ type: 'component', component: 'parts.a' }, 'field?: PartsA | null;'],
  [{ type: 'component', component: 'parts.a', repeatable: true }, 'field?: PartsA[];'],
  [{ type: 'dynamiczone', components: ['parts.a', 'parts.b'] }, 'field?: Array<(PartsA & { __component: "parts.a" }) | (PartsB & { __component: "parts.b" })>;'],
])('%j is %s', (attribute, expected) => {
  expect(member(attribute)).toBe(expected);
});

it.each([
  [{ type: 'string' }, 'field?: string | null;'],
  [{ type: 'string', required: true }, 'field?: string;'],
  [{ type: 'password' }, 'field?: string | null;'],
  [{ type: 'string', private: true }, 'field?: string | null;'],
  [{ type: 'string', writable: false }, '(absent)'],
  [{ type: 'integer' }, 'field?: number | null;'],
  [{ type: 'biginteger' }, 'field?: string | number | null;'],
  [{ type: 'datetime' }, 'field?: string | Date | null;'],
  [{ type: 'json' }, 'field?: JSONValue;'],
  [{ type: 'enumeration', enum: ['a', 'b'], required: true }, 'field?: "a" | "b";'],
  [{ type: 'media', multiple: true }, 'field?: MediaInput;'],
  [{ type: 'relation', relation: 'manyToOne', target: 'api::person.person' }, 'field?: RelationInput;'],
  [{ type: 'component', component: 'parts.a' }, 'field?: PartsAInput | null;'],
  [{ type: 'component', component: 'parts.a', repeatable: true }, 'field?: PartsAInput[];'],
  [{ type: 'dynamiczone', components: ['parts.a'] }, 'field?: Array<(PartsAInput & { __component: "parts.a" })>;'],
])('in data, %j is %s', (attribute, expected) => {
  expect(member(attribute, 'ThingInput')).toBe(expected);
});

it('input types: one per content type and component, clash-free, mapped by uid in ContentTypeInputs', () => {
  const clash = type({}, { info: { singularName: 'thing-input', pluralName: 'thing-inputs' } });
  const text = generateTypes({ contentTypes: [type({}), clash], components });
  expect(text).toContain('export type ThingInput = {'); // the answer type of api::thing-input.thing-input
  expect(text).toContain('export type ThingInput2 = {');
  expect(text).toMatch(/export type PartsAInput = \{\n.*\n {2}id\?: number;\n {2}x\?: string;\n\};/);
  expect(text).toContain('  interface ContentTypeInputs {\n    "api::thing.thing": ThingInput2;\n    "api::thing-input.thing-input": ThingInputInput;\n  }');
  expect(text).not.toMatch(/UploadFileInput/);
});

it('a draft may leave required fields empty: nullable in draft & publish types and the components they use', () => {
  const text = generateTypes({ contentTypes: [type({ t: { type: 'string', required: true }, c: { type: 'component', component: 'parts.a' } }, { options: { draftAndPublish: true } })], components });
  expect(text).toMatch(/^ {2}t: string \| null;$/m);
  expect(text).toMatch(/export type PartsA = \{\n {2}id: number;\n {2}x: string \| null;\n\};/);
});

it('names clash-free types, maps uids and localized types get locale and localizations', () => {
  const text = generateTypes({ contentTypes: [type({}, { pluginOptions: { i18n: { localized: true } } })], components: { 'thing.thing': { attributes: {} } } });
  expect(text).toContain('export type Thing = {');
  expect(text).toContain('export type ThingThing = {');
  expect(text).toMatch(/^ {2}locale: string;\n.*\n {2}localizations\?: Thing\[\];$/m);
  expect(text).toContain('declare module "content-router" {\n  interface ContentTypes {\n    "api::thing.thing": Thing;\n  }');
  expect(text).not.toMatch(/"plugin::upload.file":/);
});

it('an invalid model throws the start-up error', () => {
  expect(() => generateTypes({ contentTypes: [type({ x: { type: 'strin' } })] })).toThrow(/CR_INVALID_SCHEMA|strin/);
});

describe('the content-router command', () => {
  let dir: string;
  let stderr: jest.SpyInstance;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cr-cli-'));
    fs.mkdirSync(path.join(dir, 'api', 'thing'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'components', 'parts'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'api', 'thing', 'schema.json'), JSON.stringify(type({ c: { type: 'component', component: 'parts.a' } })));
    fs.writeFileSync(path.join(dir, 'components', 'parts', 'a.json'), JSON.stringify(components['parts.a']));
    stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
  });
  afterEach(() => {
    jest.restoreAllMocks();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('writes what generateTypes writes for the files read', () => {
    const out = path.join(dir, 'types', 'content.d.ts');
    expect(runCli(['types', '--schemas', path.join(dir, 'api'), '--components', path.join(dir, 'components'), '--out', out])).toBe(0);
    const schemas = { contentTypes: [type({ c: { type: 'component', component: 'parts.a' } })], components: { 'parts.a': components['parts.a'] } };
    expect(fs.readFileSync(out, 'utf8')).toBe(generateTypes(schemas));
  });

  it.each([
    [['types', '--schemas', 'x'], /--schemas and --out are required/],
    [['types', '--schemas', 'x', '--out', 'y', '--outt', 'z'], /unknown option --outt/],
    [['types', 'stray'], /unexpected argument "stray"/],
    [['types', '--schemas', '/nonexistent/dir', '--out', 'y'], /ENOENT/],
  ])('%j fails with a message', (argv, message) => {
    expect(runCli(argv)).toBe(1);
    expect(String(stderr.mock.calls[0]?.[0])).toMatch(message);
  });

  it('a component missing from the folder fails with the model error', () => {
    fs.rmSync(path.join(dir, 'components', 'parts', 'a.json'));
    expect(runCli(['types', '--schemas', path.join(dir, 'api'), '--components', path.join(dir, 'components'), '--out', path.join(dir, 'o.d.ts')])).toBe(1);
    expect(String(stderr.mock.calls[0]?.[0])).toMatch(/parts\.a/);
  });
});
