import type { Request, Response } from 'express';
import { storedPageOf, type FindManyResult, type StoredDocument } from '../documents/read-documents';
import { formatDocument, JsonBytes, type RowWrite } from '../format';
import { toV4 } from '../format/format-v4';
import { encodeSourceMaps, type SourceMapSettings } from '../format/encode-source-maps';
import type { ContentType, Registry } from '../schema';
import { adminEditUrl, type AdminSet } from './admin-links';
import { tagAnswer } from './conditional-get';

const isV4 = (req: Request): boolean => {
  const format = req.headers['strapi-response-format'];
  return format !== undefined && String(format).toLowerCase() === 'v4';
};

/** The answers of a router that encodes vary on it: a shared cache must not serve an encoded one to a page. */
const SOURCE_MAPS_HEADER = 'strapi-encode-source-maps';

/**
 * Strapi's content source maps are asked for with `strapi-encode-source-maps: true` (exactly `true`, as Strapi's
 * core controllers compare it), on any read or write of the Content API, draft or published (docs/preview.md).
 */
const wantsSourceMaps = (req: Request): boolean => req.headers[SOURCE_MAPS_HEADER] === 'true';

/**
 * Adds the source-maps header to `Vary`: set at once when `Vary` is the router's own `Authorization`
 * (http/cache-headers, every request), merged by `res.vary` (the `vary` package parses the header) otherwise.
 */
function varySourceMaps(res: Response): void {
  if (res.getHeader('Vary') === 'Authorization') res.setHeader('Vary', `Authorization, ${SOURCE_MAPS_HEADER}`);
  else res.vary(SOURCE_MAPS_HEADER);
}

/** The router's settings, the default edit link going to the built-in admin when the request's app mounts one. */
function settingsFor(req: Request, settings: SourceMapSettings): SourceMapSettings {
  const link = settings.admins && adminEditUrl(req, settings.admins as AdminSet);
  return link ? { editUrl: link } : settings;
}

/** The size of the last list each writer wrote (plus room), to size the next one's buffer in one go. */
const capacities = new WeakMap<RowWrite, number>();

/** The Content-Type `res.json` ends with (`application/json`, given a charset by `res.send`). */
const JSON_UTF8 = 'application/json; charset=utf-8';

/**
 * Sends `{ data, meta }`. With the request header `Strapi-Response-Format: v4`, documents are rendered in the
 * v4 shape (`{ id, documentId, attributes }`, relations wrapped in `{ data }`). With `strapi-encode-source-maps:
 * true` and `sourceMaps` (the router's), their string fields carry Strapi's content source maps; not in the v4
 * shape, where Strapi's encoder finds no attribute at the top level (`attributes` is none) and encodes nothing.
 */
export function sendData(req: Request, res: Response, registry: Registry, ct: ContentType, status: number, data: unknown, meta: Record<string, unknown>, sourceMaps?: SourceMapSettings): void {
  if (sourceMaps) varySourceMaps(res);
  const body = isV4(req)
    ? { data: toV4(registry, ct.uid, data), meta }
    : { data: sourceMaps && wantsSourceMaps(req) ? encodeSourceMaps(registry, ct.uid, data, settingsFor(req, sourceMaps)) : data, meta };
  res.status(status).json(body);
}

/**
 * Sends a list: `{ data, meta: { pagination } }`. A v5 response is written straight from the stored rows
 * (documents/read-documents' storedPageOf: the result's `data` was not read, and its compiled read's writer,
 * format/compileDocumentBytes) with the bytes and headers `res.json` would give, unless the host app changes how
 * Express writes JSON (`json replacer`, `json spaces`, `json escape`).
 */
export function sendList(req: Request, res: Response, registry: Registry, ct: ContentType, result: FindManyResult, sourceMaps?: SourceMapSettings): void {
  const meta = { pagination: result.pagination };
  const page = storedPageOf(result);
  if (!page || !writesStoredBytes(req, res, sourceMaps)) {
    sendData(req, res, registry, ct, 200, result.data, meta, sourceMaps);
    return;
  }
  if (sourceMaps) varySourceMaps(res);
  const write = page.read.writer();
  sendWritten(res, write, 16_384, (out) => {
    out.ascii('{"data":[');
    for (let i = 0; i < page.rows.length; i++) {
      if (i > 0) out.byte(0x2c);
      write(page.rows[i]!, out);
    }
    out.text(`],"meta":${JSON.stringify(meta)}}`);
  });
}

/**
 * Sends one document read by the HTTP routes (findOne, a single type's find): `{ data, meta: {} }`, written
 * straight from the stored row with its read's writer, with the bytes and headers `sendData` would give, under the
 * same conditions as {@link sendList}; else formatted and sent by `sendData`.
 */
export function sendOne(req: Request, res: Response, registry: Registry, ct: ContentType, stored: StoredDocument, sourceMaps?: SourceMapSettings): void {
  if (!writesStoredBytes(req, res, sourceMaps)) {
    sendData(req, res, registry, ct, 200, formatDocument(registry, ct.uid, stored.row, stored.read.query), {}, sourceMaps);
    return;
  }
  if (sourceMaps) varySourceMaps(res);
  const write = stored.read.writer();
  sendWritten(res, write, 4096, (out) => {
    out.ascii('{"data":');
    write(stored.row, out);
    out.ascii(',"meta":{}}');
  });
}

/**
 * Whether an answer may be written straight from stored rows (format/compileDocumentBytes): a v5 answer without
 * content source maps, while the host app leaves how Express writes JSON as it is (`json replacer`, `json
 * spaces`, `json escape`).
 */
function writesStoredBytes(req: Request, res: Response, sourceMaps: SourceMapSettings | undefined): boolean {
  const app = res.app;
  const encoded = sourceMaps !== undefined && wantsSourceMaps(req);
  return !encoded && !isV4(req) && !app.get('json replacer') && !app.get('json spaces') && !app.get('json escape');
}

/**
 * Sends, with status 200, the JSON `fill` writes, in a buffer sized by what `write`'s last answer took (`initial`
 * the first time).
 */
function sendWritten(res: Response, write: RowWrite, initial: number, fill: (out: JsonBytes) => void): void {
  const out = new JsonBytes(capacities.get(write) ?? initial);
  fill(out);
  capacities.set(write, Math.min(out.length + 1024, 1 << 20));
  sendJsonBytes(res, 200, out, write);
}

/**
 * Sends JSON written as bytes with `status`, with the headers and bytes `res.json` would give for its text; a GET
 * or HEAD's bytes are tagged as `write`'s answer first (http/conditional-get tagAnswer).
 */
function sendJsonBytes(res: Response, status: number, out: JsonBytes, write: RowWrite): void {
  const bytes = out.toBuffer();
  res.status(status);
  if (res.get('Content-Type')) {
    res.send(bytes.toString('utf8')); // res.send gives the host's type a utf-8 charset, as after res.json
    return;
  }
  // res.json's type with its charset, and the bytes res.send would make of the text (same length and ETag).
  res.setHeader('Content-Type', JSON_UTF8);
  const method = res.req.method;
  if (method === 'GET' || method === 'HEAD') tagAnswer(write, bytes);
  res.send(bytes);
}
