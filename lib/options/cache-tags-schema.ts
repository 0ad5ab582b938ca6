/**
 * The JSON schema of the `cacheTags` option (lib/cache/cache-tags.ts). A prefix is made of the characters of a
 * tag (no space, comma or quote: it goes into a header value); header values of `purgeHeaders` may not hold a
 * line break (header injection).
 */
export const cacheTagsSchema = {
  anyOf: [
    {
      type: 'object',
      required: ['header'],
      additionalProperties: false,
      properties: {
        header: { enum: ['xkey', 'Surrogate-Key', 'Cache-Tag'] },
        maxDocuments: { type: 'integer', minimum: 0, maximum: 100000 },
        maxHeaderBytes: { type: 'integer', minimum: 256, maximum: 65536 },
        prefix: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{0,64}$' },
        purgeUrl: { type: 'string', pattern: '^https?://' },
        purgeHeaders: { type: 'object', additionalProperties: { type: 'string', pattern: '^[^\\r\\n]*$' } },
        purgeBatch: { type: 'integer', minimum: 1, maximum: 10000 },
      },
    },
    { const: false },
  ],
} as const;
