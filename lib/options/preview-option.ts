import type { SourceMapSettings } from '../format/encode-source-maps';
import { compileEditUrl, DEFAULT_EDIT_URL, EDIT_URL_PLACEHOLDERS, unknownPlaceholders } from '../format/edit-url';

/** The `preview` option: Strapi 5's content source maps (docs/preview.md). */
export interface PreviewOptions {
  /**
   * The edit page each encoded field links to (`href` next to Strapi's `strapiSource`): a URL template with
   * `{model}`, `{kind}`, `{singularName}`, `{pluralName}`, `{documentId}`, `{locale}` and `{path}` (the entry's
   * document, URL-encoded). Default: the edit page in the built-in admin (`createAdmin(router)`) when the same
   * Express app mounts it (`/admin/#/{pluralName}/{documentId}`, a single type's `/admin/#/{singularName}`), else
   * the example admin's, `'http://localhost:5173/#/{pluralName}/{documentId}'`; `false`: Strapi's payload alone.
   */
  editUrl?: string | false;
}

/** The option's JSON schema (lib/options/validate-options.ts); the placeholders are checked by {@link checkPreviewOption}. */
export const previewOptionSchema = {
  anyOf: [
    {
      type: 'object',
      additionalProperties: false,
      properties: { editUrl: { anyOf: [{ type: 'string', pattern: '^(https?://|/)', maxLength: 2048 }, { const: false }] } },
    },
    { const: false },
  ],
} as const;

/** The message of a template naming an unknown placeholder; null when it is fine. */
export function checkPreviewOption(option: PreviewOptions | false | undefined): string | null {
  if (!option || typeof option.editUrl !== 'string') return null;
  const unknown = unknownPlaceholders(option.editUrl);
  if (unknown.length === 0) return null;
  return `options.preview.editUrl: unknown placeholder {${unknown[0]}} (the placeholders are ${EDIT_URL_PLACEHOLDERS.map((p) => `{${p}}`).join(', ')})`;
}

/**
 * How responses are encoded when a request asks: undefined with `preview: false` (the header is ignored).
 *
 * @example
 * sourceMapSettings({ editUrl: false }); // { editUrl: null }: Strapi's payload alone
 */
export function sourceMapSettings(option: PreviewOptions | false | undefined, admins?: ReadonlySet<object>): SourceMapSettings | undefined {
  if (option === false) return undefined;
  const editUrl = option?.editUrl ?? DEFAULT_EDIT_URL;
  return Object.freeze({ editUrl: editUrl === false ? null : compileEditUrl(editUrl), ...(option?.editUrl === undefined && admins ? { admins } : {}) });
}
