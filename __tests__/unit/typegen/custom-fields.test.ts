import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateTypes, type AttributeSchema, type ContentTypeSchema, type CustomFieldsOption } from '../../../lib';
import { runCli } from '../../../lib/cli';
import { strapiProject, strapiProjectCustomFields } from '../../fixtures/strapi-project';

const thing = (attributes: Record<string, AttributeSchema>): ContentTypeSchema => ({
  kind: 'collectionType',
  info: { singularName: 'thing', pluralName: 'things' },
  options: { draftAndPublish: false },
  attributes,
});
const color = { type: 'customField', customField: 'plugin::color-picker.color' } as AttributeSchema;

/** The member lines of `field` in `Thing` (the answer) and `ThingInput` (`data`). */
function members(attribute: AttributeSchema, customFields: CustomFieldsOption): [string, string] {
  const text = generateTypes({ contentTypes: [thing({ field: attribute })], customFields });
  const line = (typeName: string): string => {
    const declaration = new RegExp(`^export type ${typeName} = \\{\n[^]*?\n\\};$`, 'm').exec(text)?.[0] ?? '';
    return /^ {2}field\??: .*;$/m.exec(declaration)?.[0].trim() ?? '(absent)';
  };
  return [line('Thing'), line('ThingInput')];
}

it.each<[string, AttributeSchema, CustomFieldsOption, [string, string]]>([
  ['string', color, { 'plugin::color-picker.color': { type: 'string' } }, ['field: string | null;', 'field?: string | null;']],
  ['required integer', { ...color, required: true } as AttributeSchema, { 'plugin::color-picker.color': { type: 'integer', name: 'color', plugin: 'color-picker' } }, ['field: number;', 'field?: number;']],
  ['biginteger', color, { 'plugin::color-picker.color': { type: 'biginteger' } }, ['field: string | null;', 'field?: string | number | null;']],
  ['json', color, { 'plugin::color-picker.color': { type: 'json' } }, ['field: JSONValue;', 'field?: JSONValue;']],
  ['enumeration (its enum kept)', { ...color, enum: ['red', 'blue'] } as AttributeSchema, { 'plugin::color-picker.color': { type: 'enumeration' } }, ['field: "red" | "blue" | null;', 'field?: "red" | "blue" | null;']],
  ['password (never answered, writable)', color, { 'plugin::color-picker.color': { type: 'password' } }, ['(absent)', 'field?: string | null;']],
  ['a global one', { type: 'customField', customField: 'global::rating' } as AttributeSchema, { 'global::rating': { type: 'float' } }, ['field: number | null;', 'field?: number | null;']],
])('a custom field storing %s is typed as that type, in answers and in data', (_name, attribute, customFields, expected) => {
  expect(members(attribute, customFields)).toEqual(expected);
});

it.each<[string, unknown, RegExp]>([
  ['not named', {}, /CR_UNKNOWN_CUSTOM_FIELD: api::thing\.thing\.field: the custom field "plugin::color-picker\.color" is not registered/],
  ['not named (another one is)', { 'global::rating': { type: 'integer' } }, /CR_UNKNOWN_CUSTOM_FIELD: .*registered: global::rating/],
  ['an unknown type', { 'plugin::color-picker.color': { type: 'colour' } }, /CR_INVALID_OPTIONS: options\.customFields\.plugin::color-picker\.color\.type must be one of "biginteger"/],
  ['a bad uid', { 'plugin:color-picker.color': { type: 'string' } }, /CR_INVALID_OPTIONS: options\.customFields\["plugin:color-picker\.color"\]: a custom field uid is/],
  ['a type alone', { 'plugin::color-picker.color': 'string' }, /CR_INVALID_OPTIONS: options\.customFields\.plugin::color-picker\.color must be object/],
])('customFields %s: the start-up error of createContentRouter', (_name, customFields, message) => {
  expect(() => generateTypes({ contentTypes: [thing({ field: color })], customFields: customFields as CustomFieldsOption })).toThrow(message);
});

describe('content-router types with custom fields (the Strapi project fixture)', () => {
  const src = path.join(__dirname, '../../fixtures/strapi-project/src');
  const base = ['types', '--schemas', path.join(src, 'api'), '--components', path.join(src, 'components')];
  let dir: string;
  let out: string;
  let stderr: jest.SpyInstance;
  const expected = (customFields: CustomFieldsOption): string => generateTypes({ ...strapiProject(), customFields });
  const stderrText = (): string => stderr.mock.calls.map((c) => String(c[0])).join('');
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cr-cli-custom-'));
    out = path.join(dir, 'content.d.ts');
    stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined); // the fixture's CR_UNKNOWN_SCHEMA_KEYS
  });
  afterEach(() => {
    jest.restoreAllMocks();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('--custom-field <uid>=<type>, repeated or listed: what generateTypes writes with customFields', () => {
    expect(runCli([...base, '--out', out, '--custom-field', 'plugin::color-picker.color=string', '--custom-field', 'global::rating=integer'])).toBe(0);
    const text = fs.readFileSync(out, 'utf8');
    expect(text).toBe(expected(strapiProjectCustomFields));
    expect(text).toMatch(/^export type Page = \{[^]*?^ {2}accent: string \| null;\n {2}rating: number \| null;$/m);
    expect(text).toMatch(/^export type PageInput = \{[^]*?^ {2}accent\?: string \| null;\n {2}rating\?: number \| null;$/m);
    expect(runCli([...base, '--out', out, '--custom-field', 'plugin::color-picker.color=string', 'global::rating=integer'])).toBe(0);
    expect(fs.readFileSync(out, 'utf8')).toBe(text);
  });

  it('--custom-fields <file.json>: the customFields option\'s object; a --custom-field wins over it', () => {
    const file = path.join(dir, 'custom-fields.json');
    fs.writeFileSync(file, JSON.stringify(strapiProjectCustomFields));
    expect(runCli([...base, '--out', out, '--custom-fields', file])).toBe(0);
    expect(fs.readFileSync(out, 'utf8')).toBe(expected(strapiProjectCustomFields));
    expect(runCli([...base, '--out', out, '--custom-fields', file, '--custom-field', 'global::rating=string'])).toBe(0);
    expect(fs.readFileSync(out, 'utf8')).toBe(expected({ ...strapiProjectCustomFields, 'global::rating': { type: 'string' } }));
  });

  it('a custom field not named fails with the model error and says how to name it', () => {
    expect(runCli([...base, '--out', out, '--custom-field', 'plugin::color-picker.color=string'])).toBe(1);
    expect(stderrText()).toMatch(/CR_UNKNOWN_CUSTOM_FIELD: api::page\.page\.rating: the custom field "global::rating" is not registered[^]*\nSay it here with --custom-field <uid>=<type> \(or --custom-fields <file\.json>\)/);
    expect(fs.existsSync(out)).toBe(false);
  });

  it.each<[string, string[], RegExp]>([
    ['no =', ['--custom-field', 'plugin::color-picker.color'], /--custom-field "plugin::color-picker\.color": expected <uid>=<type> \(e\.g\. plugin::color-picker\.color=string\), the type one of biginteger, /],
    ['no uid', ['--custom-field', '=string'], /--custom-field "=string": expected <uid>=<type>/],
    ['an unknown type', ['--custom-field', 'global::rating=int'], /--custom-field "global::rating=int": expected <uid>=<type>/],
    ['a bad uid', ['--custom-field', 'rating=integer'], /CR_INVALID_OPTIONS: options\.customFields\["rating"\]: a custom field uid is/],
    ['a missing file', ['--custom-fields', '/nonexistent/cf.json'], /--custom-fields \/nonexistent\/cf\.json: ENOENT/],
  ])('%s fails with a message', (_name, flags, message) => {
    expect(runCli([...base, '--out', out, ...flags])).toBe(1);
    expect(stderrText()).toMatch(message);
  });

  it.each<[string, string, RegExp]>([
    ['not JSON', '{ "plugin::color-picker.color": ', /: (Unexpected end of JSON input|.*JSON)/],
    ['a type alone', '{ "plugin::color-picker.color": "string" }', /CR_INVALID_OPTIONS: options\.customFields\.plugin::color-picker\.color must be object/],
    ['an unknown key', '{ "plugin::color-picker.color": { "typ": "string" } }', /options\.customFields\.plugin::color-picker\.color\.typ: unknown option \(did you mean "type"\?\)/],
  ])('a --custom-fields file with %s fails naming the file', (_name, content, message) => {
    const file = path.join(dir, 'cf.json');
    fs.writeFileSync(file, content);
    expect(runCli([...base, '--out', out, '--custom-fields', file])).toBe(1);
    expect(stderrText()).toContain(`--custom-fields ${file}: `);
    expect(stderrText()).toMatch(message);
  });
});
