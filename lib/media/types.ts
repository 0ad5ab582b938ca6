import type { Readable } from 'node:stream';

/** One rendition of an image (`thumbnail`, `small`, ...), as stored in `formats` and returned by the API. */
export interface FileFormat {
  name: string;
  hash: string;
  ext: string;
  mime: string;
  path: null;
  width: number;
  height: number;
  /** KB, 2 decimals. */
  size: number;
  sizeInBytes: number;
  url: string;
}

/** What a provider receives: one file (the original or a format) to store under `hash + ext`. */
export interface ProviderFile {
  /** Safe storage key: letters, digits, `_` only (built by `generateHash`). */
  hash: string;
  /** `.png`, `.txt`, ... (sanitised). */
  ext: string;
  mime: string;
  /** Size in bytes, known before the upload. */
  sizeInBytes: number;
  stream: Readable;
}

/** A stored file (or format) the provider is asked to delete. */
export interface StoredFileRef {
  hash: string;
  ext: string;
  url: string;
  provider_metadata?: unknown;
}

/**
 * A storage backend (local folder, S3, ...). `upload` consumes the stream and answers the public URL;
 * `delete` removes what `upload` stored (missing objects are not an error).
 *
 * @example
 * const memory: StorageProvider = {
 *   name: 'memory',
 *   async upload(file) { store.set(file.hash + file.ext, await toBuffer(file.stream)); return { url: `/m/${file.hash}${file.ext}` }; },
 *   async delete(file) { store.delete(file.hash + file.ext); },
 * };
 */
export interface StorageProvider {
  /** Written to the file's `provider` field (`local` for the local folder). */
  readonly name: string;
  upload(file: ProviderFile): Promise<{ url: string; provider_metadata?: unknown }>;
  delete(file: StoredFileRef): Promise<void>;
}

/** A row of the `files` collection (see docs/storage-model.md). */
export type FileRow = {
  id: number;
  documentId: string;
  name: string;
  alternativeText: string | null;
  caption: string | null;
  focalPoint: unknown;
  width: number | null;
  height: number | null;
  formats: Record<string, FileFormat> | null;
  hash: string;
  ext: string;
  mime: string;
  size: number;
  url: string;
  previewUrl: string | null;
  provider: string;
  provider_metadata: unknown;
  locale: null;
  _status: 'published';
  createdAt: string;
  updatedAt: string;
  publishedAt: string;
};

/** The media object of the upload routes: a row without internal fields, plus `isUrlSigned`. */
export type MediaFile = Omit<FileRow, 'locale' | '_status'> & { isUrlSigned: false };

/** `fileInfo` of an upload or an update: what a client may set. */
export interface FileInfo {
  name?: string | null;
  alternativeText?: string | null;
  caption?: string | null;
}

/** A file whose MIME type a media attribute does not accept. */
export interface DisallowedFile {
  id: number;
  mime: string;
}

/** A file as the service answers it: the stored row without internal fields (`_id`, `_status`, `locale`). */
export type PublicFile = Omit<FileRow, 'locale' | '_status'>;

/** A file as a query's `fields` selects it: `id`, `documentId` and the fields asked (all of them without `fields`). */
export type FileSelection = Pick<PublicFile, 'id' | 'documentId'> & Partial<PublicFile>;

/**
 * Links uploaded files to an entry (the `ref`, `refId`, `field` form fields): validated from the form's fields
 * before any file is stored (throws the request's 400/403), applied in the transaction that inserts the files.
 */
export type PrepareFileLink = (fields: Readonly<Record<string, string>>) => Promise<{ apply(files: readonly { id: number; mime: string }[]): Promise<void> } | null>;

/** Who reads the media library (`canFind`, as for content-type queries): the caller's ability, or host code. */
export interface FileQueryOptions {
  context?: import('../query/types').QueryContext;
}

/** The upload service behind `/upload` (and the documents service's media checks). */
export interface MediaService {
  /**
   * Parses a multipart request (`files` parts, optional `fileInfo`), stores each file; answers them in request
   * order. `prepareLink` links them to an entry (`ref`, `refId`, `field`).
   */
  upload(req: import('node:http').IncomingMessage, options?: { prepareLink?: PrepareFileLink }): Promise<PublicFile[]>;
  /**
   * `POST /upload?id=<id>`: without a file, updates the info (`fileInfo` form field or a JSON body's
   * `fileInfo`); with one file, replaces the file's content keeping its `hash` and URL.
   */
  updateFromRequest(id: number, req: import('node:http').IncomingMessage, body?: unknown): Promise<PublicFile>;
  /**
   * Files matching a `GET /upload/files` query (raw query string or parameter object), parsed and compiled as every
   * content type's list (lib/query, lib/pipeline): by `id` by default, a page of `rest.defaultLimit` (at most
   * `rest.maxLimit`). `context`: the caller (default: host code, who may find every type). Bad queries throw 400s.
   */
  findMany(rawQuery?: string | Record<string, unknown>, options?: FileQueryOptions): Promise<FileSelection[]>;
  /**
   * The file whose `id` is `id` (ids that are not safe integers find nothing). `options.query`, when given, is
   * checked first as Strapi checks the query of `GET /upload/files/:id` (a 400 for a bad one); it selects nothing.
   */
  findOne(id: number, options?: FileQueryOptions & { query?: string | Record<string, unknown> }): Promise<PublicFile | null>;
  /** Sets `name`, `alternativeText`, `caption` (null/undefined keep the current value). NotFoundError when missing. */
  update(id: number, info: FileInfo): Promise<PublicFile>;
  /** Deletes the stored objects, detaches the file from every document, removes the row. NotFoundError when missing. */
  delete(id: number): Promise<PublicFile>;
  /** Removes file `id` from every media attribute of every document (components and dynamic zones too). Answers the rows changed. */
  detach(id: number): Promise<number>;
  /** The ids among `ids` that are not files (for the documents service's "relation(s) ... do not exist" error). */
  exists(ids: readonly number[]): Promise<number[]>;
  /** The files among `ids` whose MIME type `allowedTypes` refuses (empty when all fit or `allowedTypes` is null). */
  disallowed(ids: readonly number[], allowedTypes: readonly string[] | null): Promise<DisallowedFile[]>;
  /** Throws the 400 ValidationError for files of `ids` a media attribute does not accept. */
  checkAllowedTypes(attribute: import('../schema').MediaAttribute, ids: readonly number[], path?: readonly string[]): Promise<void>;
}

/** Strapi's media events (the upload plugin's `media.create`, `media.update`, `media.delete`). */
export type FileEventName = 'media.create' | 'media.update' | 'media.delete';

/** Where the upload service announces its writes as events: called inside the write's transaction with the file row. */
export interface FileEvents {
  record(event: FileEventName, row: FileRow): void;
}
