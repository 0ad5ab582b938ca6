import type { Request, RequestHandler, Response } from 'express';
import { answerDocumentIds, queryTypes } from '../cache/answer-tags';
import { documentTag, formatTagHeader, typeTag, type CacheTagSettings } from '../cache/cache-tags';
import type { Query } from '../query/types';
import type { Registry } from '../schema';

/** What a read route tells the tagging middleware before it reads (route: as in the `cacheControl` option). */
export interface ReadNote {
  readonly uid: string;
  readonly route: 'find' | 'findOne';
  readonly query?: Query;
  /** The documentId of a findOne (a 404 is tagged with it: the document may be created, published, localized). */
  readonly documentId?: string;
}

/** Notes a read for the tagging middleware (nothing without the `cacheTags` option). */
export type NoteRead = (req: Request, note: ReadNote) => void;

const NOTE = Symbol('content-router.read-note');

type Noted = Request & { [NOTE]?: ReadNote };

/** Records what a read route reads, for {@link cacheTagsMiddleware}. */
export const noteRead: NoteRead = (req, note) => {
  (req as Noted)[NOTE] = note;
};

function isBody(body: unknown): body is string | Uint8Array {
  return typeof body === 'string' || ArrayBuffer.isView(body);
}

/**
 * The tags of an answer (docs/caching.md, "CDN tags and purges"):
 * - a list (a collection type's `find`, a single type's document, the media library's list): its type's tag;
 * - every answer: the tag of each document it shows, at any depth (`"documentId"` keys of its JSON), and the
 *   type tags of the types that select its documents without being shown (relation filters and sorts,
 *   filtered or counted populates);
 * - a 404 of a findOne: the requested document's tag (its creation, publication or new locale purges it); of a
 *   single type or a media file: the type's tag.
 * Over `maxDocuments` document tags or `maxHeaderBytes`, the document tags are replaced by the tags of every
 * type the answer may show (each write of a document purges its type's tag).
 */
export function answerTags(registry: Registry, settings: CacheTagSettings, note: ReadNote, status: number, body: string | Uint8Array): string | undefined {
  const { prefix } = settings;
  if (status === 404) {
    const tag = note.documentId !== undefined && note.uid !== 'plugin::upload.file' ? documentTag(note.documentId, prefix) : typeTag(note.uid, prefix);
    return tag;
  }
  if (status < 200 || status > 299) return undefined;
  const types = queryTypes(registry, note.uid, note.query);
  const typeTags = [...types.selecting].map((uid) => typeTag(uid, prefix));
  if (note.route === 'find') typeTags.unshift(typeTag(note.uid, prefix));
  const documents = new Set([...answerDocumentIds(body)].map((id) => documentTag(id, prefix)));
  const value = formatTagHeader(settings, typeTags, documents, [...types.shown].map((uid) => typeTag(uid, prefix)));
  return value === '' ? undefined : value;
}

/** The media library's reads (upload-router.ts), under the router's mount path. */
const MEDIA_LIST = /^\/upload\/files\/?$/;
const MEDIA_FILE = /^\/upload\/files\/[^/]+\/?$/;

/**
 * Sets the cache tag header (the `cacheTags` option) on the `GET`/`HEAD` answers of the reads noted with
 * {@link noteRead} (the content routes) and of the media library's reads, when their body is sent. A header the
 * host app set first is kept.
 */
export function cacheTagsMiddleware(registry: Registry, settings: CacheTagSettings): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (MEDIA_LIST.test(req.path)) noteRead(req, { uid: 'plugin::upload.file', route: 'find' });
    else if (MEDIA_FILE.test(req.path)) noteRead(req, { uid: 'plugin::upload.file', route: 'findOne' });
    const send = res.send;
    res.send = function sendTagged(this: Response, body?: unknown): Response {
      const note = (req as Noted)[NOTE];
      if (note && isBody(body) && !this.headersSent && this.get(settings.header) === undefined) {
        const value = answerTags(registry, settings, note, this.statusCode, body);
        if (value) this.set(settings.header, value);
      }
      return send.call(this, body);
    };
    next();
  };
}
