/**
 * The JSON schema of the `cacheControl` option (lib/http/cache-control.ts; its uids are checked there against the
 * registry). Seconds are RFC 9111 section 1.2.2's delta-seconds: a non-negative integer, at most 2^31.
 */
export const cacheControlSchema = (() => {
  const seconds = { type: 'integer', minimum: 0, maximum: 2147483648 } as const;
  const policy = {
    anyOf: [
      {
        type: 'object',
        additionalProperties: false,
        properties: { maxAge: seconds, sMaxAge: seconds, staleWhileRevalidate: seconds, staleIfError: seconds },
      },
      { const: false },
    ],
  } as const;
  return {
    type: 'object',
    additionalProperties: false,
    properties: {
      public: policy,
      contentTypes: {
        type: 'object',
        additionalProperties: {
          anyOf: [policy, { type: 'object', additionalProperties: false, minProperties: 1, properties: { find: policy, findOne: policy } }],
        },
      },
      drafts: { enum: ['no-store', 'private'] },
    },
  } as const;
})();
