import type { Attribute, Attributes, Registry, ScalarAttribute } from '../schema';
import { USER_UID } from '../users-permissions/content-types';
import { propertyKey as key } from './type-names';

/**
 * The helper types the input types use, written once at the top of a generated file: what a relation and a media
 * attribute accept in `data` (the shapes the body validator's relation-shape.ts accepts).
 */
export const INPUT_HEADER = `
/** A related document in \`data\`: its documentId (or row id), or an object naming it, the version and a position. */
export type RelationRef =
  | string
  | number
  | { documentId: string; locale?: string | null; status?: 'draft' | 'published'; position?: RelationPosition }
  | { id: number | \`\${number}\`; locale?: string | null; status?: 'draft' | 'published'; position?: RelationPosition };
/** Where \`connect\` puts a related document in an ordered to-many relation. */
export type RelationPosition = { before?: string | number; after?: string | number; start?: boolean; end?: boolean; locale?: string; status?: 'draft' | 'published' };
/** A relation in \`data\`: one or more related documents, \`{ connect, disconnect, set }\`, or null (none). */
export type RelationInput =
  | RelationRef
  | RelationRef[]
  | { connect?: RelationRef | RelationRef[]; disconnect?: RelationRef | RelationRef[]; set?: RelationRef | RelationRef[]; options?: { strict?: boolean } }
  | null;
/** A media file in \`data\`: its id (an upload's answer gives it), or an object with that id. */
export type MediaRef = number | \`\${number}\` | { id: number | \`\${number}\` };
/** A media attribute in \`data\`: one or more files, \`{ connect, disconnect, set }\`, or null (none). */
export type MediaInput = MediaRef | MediaRef[] | { connect?: MediaRef | MediaRef[]; disconnect?: MediaRef | MediaRef[]; set?: MediaRef | MediaRef[] } | null;
`;

const SCALAR_INPUT: Readonly<Record<string, string>> = {
  string: 'string', text: 'string', richtext: 'string', email: 'string', uid: 'string', password: 'string',
  integer: 'number', float: 'number', decimal: 'number',
  biginteger: 'string | number', // decimal digits, or a safe integer
  boolean: 'boolean',
  date: 'string | Date', time: 'string | Date', datetime: 'string | Date', timestamp: 'string | Date',
  json: 'JSONValue', blocks: 'Blocks',
};

interface InputContext {
  registry: Registry;
  /** The input type name of each content type and component uid. */
  inputs: ReadonlyMap<string, string>;
  /** Components reached from a draft & publish type: a draft may leave their required fields empty. */
  inDrafts: ReadonlySet<string>;
}

/**
 * One input type per content type (the user's too) and component: what `data` of a create or update accepts (every attribute
 * optional: a draft may leave any empty; private attributes and passwords are writable; system fields and
 * `writable: false` attributes are not). Components take their `id` to keep an existing entry.
 *
 * @example
 * generateInputs({ registry, inputs, inDrafts }); // 'export type ArticleInput = {\n  title?: string | null;\n ...'
 */
export function generateInputs(ctx: InputContext): string[] {
  const out: string[] = [];
  for (const ct of ctx.registry.contentTypes.values()) {
    if (!ctx.inputs.has(ct.uid)) continue; // the upload file and the role: their routes take other shapes
    const what = ct.uid === USER_UID ? `The body of \`POST /users\` and \`PUT /users/:id\` (\`${ct.uid}\`)` : `\`data\` of a create or update of \`${ct.uid}\``;
    out.push(`/** ${what}. */\nexport type ${ctx.inputs.get(ct.uid)!} = {\n${inputMembers(ctx, ct.attributes, ct.attributeNames, ct.draftAndPublish)}};\n`);
  }
  for (const c of ctx.registry.components.values()) {
    const members = `  /** An existing entry's id: keeps it (updated) instead of creating a new one. */\n  id?: number;\n${inputMembers(ctx, c.attributes, c.attributeNames, ctx.inDrafts.has(c.uid))}`;
    out.push(`/** Component \`${c.uid}\` in \`data\`. */\nexport type ${ctx.inputs.get(c.uid)!} = {\n${members}};\n`);
  }
  return out;
}

function inputMembers(ctx: InputContext, attributes: Attributes, names: readonly string[], draft: boolean): string {
  let s = '';
  for (const name of names) {
    const attribute = attributes[name]!;
    if (attribute.system || attribute.raw.writable === false) continue;
    s += `  ${key(name)}?: ${inputType(ctx, attribute, draft)};\n`;
  }
  return s;
}

function inputType(ctx: InputContext, attribute: Attribute, draft: boolean): string {
  const input = (uid: string): string => ctx.inputs.get(uid)!;
  switch (attribute.kind) {
    case 'scalar':
      return scalarInput(attribute, draft);
    case 'relation':
      return 'RelationInput';
    case 'media':
      return 'MediaInput';
    case 'component':
      return attribute.repeatable ? `${input(attribute.component)}[]` : `${input(attribute.component)} | null`;
    case 'dynamiczone':
      return `Array<${attribute.components.map((uid) => `(${input(uid)} & { __component: ${JSON.stringify(uid)} })`).join(' | ') || 'never'}>`;
  }
}

/** A scalar's input: null where the answer may be null (a required value no draft can leave empty may not). */
function scalarInput(attribute: ScalarAttribute, draft: boolean): string {
  const base = attribute.type === 'enumeration' ? (attribute.enum ?? []).map((v) => JSON.stringify(v)).join(' | ') || 'string' : SCALAR_INPUT[attribute.type]!;
  if (base === 'JSONValue') return base;
  return attribute.required && !draft ? base : `${base} | null`;
}
