/**
 * The link to a field's edit page that a content source map carries next to Strapi's own `strapiSource`
 * (encode-source-maps.ts): the `preview.editUrl` option, a URL template (docs/preview.md).
 */

/** The placeholders an edit URL template may use, each replaced by its value, URL-encoded. */
export const EDIT_URL_PLACEHOLDERS = ['model', 'kind', 'singularName', 'pluralName', 'documentId', 'locale', 'path'] as const;

export type EditUrlPlaceholder = (typeof EDIT_URL_PLACEHOLDERS)[number];

/** The edit page of the example admin (examples/admin: react-admin's hash routes, `npm run admin`). */
export const DEFAULT_EDIT_URL = 'http://localhost:5173/#/{pluralName}/{documentId}';

/** What an edit link is built from: the document the response is about, and the field's path in it. */
export type EditUrlValues = Readonly<Record<EditUrlPlaceholder, string | undefined>>;

/** Builds the link of one field; compiled once per router from the template. */
export type EditUrl = (values: EditUrlValues) => string;

const PLACEHOLDER = /\{([^{}]*)\}/g;

/**
 * The placeholders of `template` that are not in {@link EDIT_URL_PLACEHOLDERS} (the option's check names them).
 *
 * @example
 * unknownPlaceholders('https://cms.example.com/{model}/{id}'); // ['id']
 */
export function unknownPlaceholders(template: string): string[] {
  const known: readonly string[] = EDIT_URL_PLACEHOLDERS;
  return [...template.matchAll(PLACEHOLDER)].map((m) => m[1]!).filter((name) => !known.includes(name));
}

/**
 * Compiles an edit URL template: each `{placeholder}` becomes its value, URL-encoded (`''` when the document has
 * none, e.g. `{locale}` of a type without i18n). The template is checked by the options first.
 *
 * @example
 * compileEditUrl('https://cms.example.com/#/{pluralName}/{documentId}')({ pluralName: 'articles', documentId: 'a1', ... });
 * // 'https://cms.example.com/#/articles/a1'
 */
export function compileEditUrl(template: string): EditUrl {
  const parts = template.split(PLACEHOLDER); // literal, name, literal, name, ..., literal
  return (values) => {
    let out = parts[0]!;
    for (let i = 1; i < parts.length; i += 2) {
      out += encodeURIComponent(values[parts[i] as EditUrlPlaceholder] ?? '') + parts[i + 1]!;
    }
    return out;
  };
}
