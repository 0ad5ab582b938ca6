import type { YupType } from './messages';

/** The annotation keyword our generated JSON Schemas carry so ajv errors can be told in yup's words. */
export const ANNOTATION = 'x-yup';

/** What an annotated (sub)schema stands for. */
export interface Annotation {
  /** yup type name of the value (for "must be a `<type>` type"). */
  type?: YupType;
  /** Which yup test a sub-schema stands for, when the keyword alone does not say it. */
  kind?: 'email' | 'notEmpty' | 'regex' | 'oneOf' | 'biginteger';
  /** The regex as printed (`/^...$/`) or the list of allowed values. */
  text?: string;
}

/** A JSON Schema object as we build them (plain data, handed to ajv). */
export type JsonSchema = { [key: string]: unknown };

/** The four compiled variants of a type: create/update, published/draft. */
export interface Variant {
  readonly action: 'create' | 'update';
  readonly draft: boolean;
}

export const VARIANTS: readonly Variant[] = [
  { action: 'create', draft: false },
  { action: 'create', draft: true },
  { action: 'update', draft: false },
  { action: 'update', draft: true },
];

export const variantKey = (v: Variant): string => `${v.action}${v.draft ? '-draft' : ''}`;
