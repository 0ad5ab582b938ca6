import { createHash } from 'node:crypto';

/** The response headers CDNs read cache tags from (docs/caching.md, "CDN tags and purges"). */
export type CacheTagHeader = 'xkey' | 'Surrogate-Key' | 'Cache-Tag';

/** The `cacheTags` option of createContentRouter. */
export interface CacheTagsOptions {
  /** The response header carrying the tags: `xkey` (Varnish), `Surrogate-Key` (Fastly), `Cache-Tag` (Cloudflare). */
  header: CacheTagHeader;
  /** The most document tags an answer carries; with more, it carries its type tags instead. Default 64. */
  maxDocuments?: number;
  /** The most bytes of the header's value; over it, the answer carries its type tags instead. Default 8192. */
  maxHeaderBytes?: number;
  /** Prepended to every tag, so several APIs can share one CDN (letters, digits, `_`, `-`, `.`, `:`). Default ''. */
  prefix?: string;
  /** Also POST `{ "tags": [...] }` to this URL after each write (Cloudflare's purge API takes that body). */
  purgeUrl?: string;
  /** Headers of the purge POST (`Authorization` for the CDN's API). */
  purgeHeaders?: Readonly<Record<string, string>>;
  /** The most tags one purge POST carries (Cloudflare takes 100 tags a call); more are sent in several calls. Default 100. */
  purgeBatch?: number;
}

/** The settings of a router's cache tags, defaults filled in. */
export interface CacheTagSettings {
  readonly header: CacheTagHeader;
  readonly separator: ' ' | ',';
  readonly maxDocuments: number;
  readonly maxHeaderBytes: number;
  readonly prefix: string;
}

/** Characters a tag is made of: printable ASCII with no space, comma, quote or backslash (every CDN takes them). */
const SAFE_ID = /^[A-Za-z0-9_.~-]{1,100}$/;

/**
 * The settings of the `cacheTags` option (already checked by the options' schema).
 *
 * @example
 * cacheTagSettings({ header: 'Cache-Tag' }).separator; // ',' (Cloudflare's tags are comma-separated)
 */
export function cacheTagSettings(options: CacheTagsOptions): CacheTagSettings {
  return {
    header: options.header,
    // Cloudflare: a comma-separated list; Fastly: space-separated; xkey: spaces and/or commas.
    separator: options.header === 'Cache-Tag' ? ',' : ' ',
    maxDocuments: options.maxDocuments ?? 64,
    maxHeaderBytes: options.maxHeaderBytes ?? 8192,
    prefix: options.prefix ?? '',
  };
}

/**
 * The tag of the lists of a content type (`plugin::upload.file`: the media library): `t:<uid>`. Every answer
 * whose set of documents may change when a document of the type is created, deleted or changed carries it.
 *
 * @example
 * typeTag('api::article.article'); // 't:api::article.article'
 */
export function typeTag(uid: string, prefix = ''): string {
  return `${prefix}t:${SAFE_UID.test(uid) ? uid : `~${digest(uid)}`}`;
}

const SAFE_UID = /^[A-Za-z0-9_.:-]{1,200}$/;

/**
 * The tag of one document, in every locale and status: `d:<documentId>`. A documentId that is not made of
 * `[A-Za-z0-9_.~-]` (at most 100 of them) is tagged by the first 96 bits of its SHA-256 instead (`d:~<base64url>`),
 * so a tag is always a safe header value, whatever a `documentId` generator or a JSON field holds.
 *
 * @example
 * documentTag('019a3c1e-77aa-7c3e-9f1a-2b8a0e4f6d11'); // 'd:019a3c1e-77aa-7c3e-9f1a-2b8a0e4f6d11'
 * documentTag('a b\r\nSet-Cookie: x'); // 'd:~…16 base64url characters…'
 */
export function documentTag(documentId: string, prefix = ''): string {
  return `${prefix}d:${SAFE_ID.test(documentId) && !documentId.startsWith('~') ? documentId : `~${digest(documentId)}`}`;
}

function digest(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest().subarray(0, 12).toString('base64url');
}

/**
 * The header value of an answer's tags: its type tags, then its document tags; with more than `maxDocuments`
 * document tags, or a value over `maxHeaderBytes`, the type tags and the `collapsed` ones instead (the tags of
 * the types of the documents left out: every write of a document purges its type's tag, so nothing is missed,
 * only purged more often). Empty when there is no tag.
 *
 * @example
 * formatTagHeader(settings, ['t:api::article.article'], new Set(['d:a', 'd:b']), []); // 't:api::article.article d:a d:b'
 */
export function formatTagHeader(settings: CacheTagSettings, types: readonly string[], documents: ReadonlySet<string>, collapsed: readonly string[]): string {
  if (documents.size <= settings.maxDocuments) {
    const full = [...new Set(types), ...documents].join(settings.separator);
    if (Buffer.byteLength(full) <= settings.maxHeaderBytes) return full;
  }
  // Type tags are short and few (one per content type at most): this stays far below any CDN's limit.
  return [...new Set([...types, ...collapsed])].join(settings.separator);
}
