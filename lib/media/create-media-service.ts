import type { IncomingMessage } from 'node:http';
import { v7 as uuidv7 } from 'uuid';
import type { Engine, Row } from '../engine';
import { NotFoundError, ValidationError, fieldValidationError } from '../errors';
import type { RestLimits } from '../query';
import type { MediaAttribute, Registry } from '../schema';
import { sanitizeFileName } from './file-name';
import { toPublicFile } from './format-file';
import { mediaPaths, mimeAllowed, removeFileFromRow } from './media-references';
import { parseFileInfo } from './parse-file-info';
import { DEFAULT_FILES_LIMITS, filesQuery, findFiles } from './find-files';
import { DEFAULT_MAX_PIXELS, DEFAULT_MAX_REQUEST_PIXELS, type ImageHeader, type PixelLimits, assertPixelBudget, readImageHeader } from './image-header';
import { type SharpSettings, configureSharp, createSlots } from './image-slots';
import { DEFAULT_BREAKPOINTS } from './process-image';
import { type UploadLimits, type UploadRequest, readUploadRequest } from './read-upload-request';
import { type StoreContext, type StoredContent, fileName, prepareFile, putFile, storedObjects } from './store-file';
import type { DisallowedFile, FileEventName, FileEvents, FileInfo, FileRow, MediaService, PrepareFileLink, PublicFile, StorageProvider } from './types';

export const FILES_COLLECTION = 'files';

export interface MediaServiceOptions {
  engine: Engine;
  registry: Registry;
  provider: StorageProvider;
  /** Bytes per file; over it an upload is a 413. Default 200 MB. */
  sizeLimit?: number;
  /** Files per request. Default 20. */
  maxFiles?: number;
  /** Responsive formats: name -> longest side. Default `{ small: 500, medium: 750, large: 1000 }`. */
  breakpoints?: Record<string, number>;
  /** Most pixels (width x height) of an image; larger ones are a 400 before decoding. Default 50 000 000. */
  maxPixels?: number;
  /** Most pixels of all the images of one request; more is a 400 before decoding. Default 100 000 000. */
  maxRequestPixels?: number;
  /** sharp's process-wide cache and thread settings; default `{ cache: false, concurrency: 1 }`; `false` leaves them. */
  sharp?: SharpSettings | false;
  clock?: () => Date;
  documentId?: () => string;
  /** Where writes are announced as Strapi's media events (webhooks, `router.on`), inside their transaction. */
  events?: FileEvents;
  /** The page sizes and depths of file queries, as for content types (the `rest` option). Default 25 / 100. */
  rest?: RestLimits;
}

/**
 * The upload service: stores files through a provider, keeps their rows in the `files` collection and
 * keeps documents consistent when a file goes away.
 *
 * @example
 * const media = createMediaService({ engine, registry, provider: localProvider({ directory: './public/uploads' }) });
 * app.use('/api/upload', createUploadRouter(media));
 */
export function createMediaService(options: MediaServiceOptions): MediaService {
  const { engine, registry, provider } = options;
  const clock = options.clock ?? (() => new Date());
  const newDocumentId = options.documentId ?? (() => uuidv7());
  const breakpoints = Object.freeze({ ...(options.breakpoints ?? DEFAULT_BREAKPOINTS) });
  const pixelLimits: PixelLimits = {
    maxPixels: options.maxPixels ?? DEFAULT_MAX_PIXELS,
    maxRequestPixels: options.maxRequestPixels ?? DEFAULT_MAX_REQUEST_PIXELS,
  };
  const imageSlots = createSlots(1);
  configureSharp(options.sharp);
  const storeContext = (workDir: string): StoreContext => ({
    provider, breakpoints, workDir, maxPixels: pixelLimits.maxPixels, imageSlot: (fn) => imageSlots.run(fn),
  });
  /** Runs a write and records its events in the same transaction (a plain write without an events recorder). */
  async function announced(event: FileEventName, rows: readonly FileRow[], write: () => Promise<unknown>): Promise<void> {
    const events = options.events;
    if (!events) return void (await write());
    await engine.transaction(async () => {
      await write();
      for (const row of rows) events.record(event, row);
    });
  }
  const limits: UploadLimits = { sizeLimit: options.sizeLimit ?? 200 * 1024 * 1024, maxFiles: options.maxFiles ?? 20, maxFieldSize: 1024 * 1024 };

  async function findRow(id: number): Promise<FileRow | null> {
    if (!Number.isSafeInteger(id)) return null;
    const [row] = await engine.find(FILES_COLLECTION, { id });
    return (row as FileRow | undefined) ?? null;
  }

  /** The image headers of a request's files, refused (400) over the pixel limits before anything is decoded. */
  async function checkedHeaders(files: readonly { path: string; name: string }[]): Promise<(ImageHeader | null)[]> {
    const headers = await Promise.all(files.map((f) => readImageHeader(f.path)));
    assertPixelBudget(files.map((f, i) => ({ name: f.name, header: headers[i] ?? null })), pixelLimits);
    return headers;
  }

  async function withRequest<T>(req: IncomingMessage, fn: (r: UploadRequest) => Promise<T>): Promise<T> {
    const request = await readUploadRequest(req, limits);
    try {
      return await fn(request);
    } finally {
      await request.cleanup();
    }
  }

  async function upload(req: IncomingMessage, options: { prepareLink?: PrepareFileLink } = {}): Promise<PublicFile[]> {
    return withRequest(req, async (request) => {
      if (request.files.length === 0) throw new ValidationError('Files are empty');
      const infos = parseFileInfo(request.fields.fileInfo, request.files.length);
      const link = (await options.prepareLink?.(request.fields)) ?? null;
      const ctx = storeContext(request.workDir);
      const names = request.files.map((file, i) => fileName(file, infos[i] ?? {}));
      const headers = await checkedHeaders(request.files.map((file, i) => ({ path: file.path, name: names[i]! })));
      const stored: { name: string; info: FileInfo; content: StoredContent }[] = [];
      try {
        for (const [i, file] of request.files.entries()) {
          const name = names[i]!;
          const prepared = await prepareFile(file, name, ctx, headers[i] ?? null);
          stored.push({ name, info: infos[i] ?? {}, content: await putFile(prepared, provider) });
        }
        const firstId = await engine.nextId(FILES_COLLECTION, stored.length);
        const now = clock().toISOString();
        const rows: FileRow[] = stored.map((s, i) => ({
          id: firstId + i,
          documentId: newDocumentId(),
          name: s.name,
          alternativeText: s.info.alternativeText ?? null,
          caption: s.info.caption ?? null,
          focalPoint: null,
          ...s.content,
          previewUrl: null,
          locale: null,
          _status: 'published',
          createdAt: now,
          updatedAt: now,
          publishedAt: now,
        }));
        await announced('media.create', rows, () =>
          engine.transaction(async () => {
            await engine.insertMany(FILES_COLLECTION, rows);
            await link?.apply(rows);
          }),
        );
        return rows.map(toPublicFile);
      } catch (err) {
        await Promise.allSettled(stored.flatMap((s) => storedObjects(s.content).map((o) => provider.delete(o))));
        throw err;
      }
    });
  }

  /** Writes the new version of file `id` (its engine `_id` is kept by the engine). */
  async function save(id: number, next: FileRow): Promise<PublicFile> {
    delete (next as Partial<Row>)._id;
    await announced('media.update', [next], () => engine.replaceOne(FILES_COLLECTION, { id }, next));
    return toPublicFile(next);
  }

  async function update(id: number, info: FileInfo): Promise<PublicFile> {
    const row = await findRow(id);
    if (!row) throw new NotFoundError('Entity not found');
    const [checked = {}] = parseFileInfo(info, 1);
    const next: FileRow = {
      ...row,
      name: checked.name === undefined || checked.name === null ? row.name : sanitizeFileName(checked.name),
      alternativeText: checked.alternativeText ?? row.alternativeText,
      caption: checked.caption ?? row.caption,
      updatedAt: clock().toISOString(),
    };
    return save(id, next);
  }

  async function replace(id: number, request: UploadRequest): Promise<PublicFile> {
    const row = await findRow(id);
    if (!row) throw new NotFoundError('Entity not found');
    const [info = {}] = parseFileInfo(request.fields.fileInfo, 1);
    const file = request.files[0]!;
    const name = info.name ? fileName(file, info) : file.filename;
    // Refuse an oversized or broken image before the current content is deleted.
    const [header = null] = await checkedHeaders([{ path: file.path, name }]);
    const prepared = await prepareFile(file, name, storeContext(request.workDir), header, { hash: row.hash, ext: row.ext });
    if (row.provider === provider.name) await Promise.all(storedObjects(row).map((o) => provider.delete(o)));
    const content = await putFile(prepared, provider);
    const next: FileRow = {
      ...row,
      ...content,
      name,
      alternativeText: info.alternativeText ?? row.alternativeText,
      caption: info.caption ?? row.caption,
      updatedAt: clock().toISOString(),
    };
    return save(id, next);
  }

  async function updateFromRequest(id: number, req: IncomingMessage, body?: unknown): Promise<PublicFile> {
    return withRequest(req, async (request) => {
      if (request.files.length > 1) throw new ValidationError('Cannot replace a file with multiple ones');
      if (request.files.length === 1) return replace(id, request);
      const source = (request.json ?? body) as { fileInfo?: unknown } | undefined;
      const raw = request.fields.fileInfo ?? (source && typeof source === 'object' ? source.fileInfo : undefined);
      const [info = {}] = parseFileInfo(raw, 1);
      return update(id, info);
    });
  }

  async function detach(id: number): Promise<number> {
    let changed = 0;
    for (const ct of registry.contentTypes.values()) {
      if (ct.internal) continue;
      const paths = mediaPaths(registry, ct.attributes);
      if (paths.length === 0) continue;
      const rows = await engine.find(ct.collectionName, { $or: paths.map((p) => ({ [p]: id })) });
      for (const row of rows) {
        if (!removeFileFromRow(registry, ct.attributes, row, id)) continue;
        const rowId = row.id;
        delete row._id;
        await engine.replaceOne(ct.collectionName, { id: rowId }, row);
        changed++;
      }
    }
    return changed;
  }

  async function remove(id: number): Promise<PublicFile> {
    const row = await findRow(id);
    if (!row) throw new NotFoundError('file.notFound');
    await engine.transaction(async () => {
      await detach(id);
      options.events?.record('media.delete', row);
      await engine.deleteMany(FILES_COLLECTION, { id });
    });
    if (row.provider === provider.name) await Promise.allSettled(storedObjects(row).map((o) => provider.delete(o)));
    return toPublicFile(row);
  }

  async function rowsOf(ids: readonly number[]): Promise<Row[]> {
    const valid = ids.filter((id) => Number.isSafeInteger(id));
    return valid.length === 0 ? [] : engine.find(FILES_COLLECTION, { id: { $in: valid } });
  }

  async function disallowed(ids: readonly number[], allowedTypes: readonly string[] | null): Promise<DisallowedFile[]> {
    if (!allowedTypes || allowedTypes.length === 0) return [];
    return (await rowsOf(ids))
      .filter((r) => !mimeAllowed(String(r.mime), allowedTypes))
      .map((r) => ({ id: r.id as number, mime: String(r.mime) }));
  }

  return {
    upload,
    updateFromRequest,
    update,
    delete: remove,
    detach,
    async findMany(rawQuery = '', { context } = {}) {
      return findFiles(engine, registry, filesQuery({ registry, rest: options.rest ?? DEFAULT_FILES_LIMITS, context }, rawQuery, 'find'));
    },
    async findOne(id, { query, context } = {}) {
      if (query !== undefined) filesQuery({ registry, rest: options.rest ?? DEFAULT_FILES_LIMITS, context }, query, 'findOne');
      const row = await findRow(id);
      return row ? toPublicFile(row) : null;
    },
    async exists(ids) {
      const found = new Set((await rowsOf(ids)).map((r) => r.id));
      return [...new Set(ids)].filter((id) => !found.has(id));
    },
    disallowed,
    async checkAllowedTypes(attribute: MediaAttribute, ids, path) {
      const bad = await disallowed(ids, attribute.allowedTypes);
      if (bad.length === 0) return;
      const allowed = (attribute.allowedTypes ?? []).join(', ');
      throw fieldValidationError(
        bad.map((f) => ({
          path: [...(path ?? [attribute.name])],
          message: `File ${f.id} (${f.mime}) is not an allowed type for ${attribute.name} (allowed: ${allowed})`,
          name: 'ValidationError' as const,
          value: f.id,
        })),
      );
    },
  };
}
