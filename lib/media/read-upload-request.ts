import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { PayloadTooLargeError, ValidationError } from '../errors';
import { drainRequest } from './drain-request';
import { bytesToHumanReadable, sanitizeFileName, sanitizeMime } from './file-name';

/** One received file, spooled to the request's temporary folder. */
export interface ReceivedFile {
  /** Sanitised client file name. */
  filename: string;
  /** Sanitised client MIME type. */
  mime: string;
  path: string;
  sizeInBytes: number;
}

/** A parsed upload request. Call `cleanup()` once done (removes the temporary folder). */
export interface UploadRequest {
  fields: Record<string, string>;
  files: ReceivedFile[];
  /** The parsed body of a JSON request (an info update sent as `{ "fileInfo": {...} }`). */
  json?: unknown;
  workDir: string;
  cleanup(): Promise<void>;
}

export interface UploadLimits {
  /** Bytes per file. */
  sizeLimit: number;
  /** Files per request. */
  maxFiles: number;
  /** Bytes per form field (the `fileInfo` JSON). */
  maxFieldSize: number;
}

const FILE_FIELD = 'files';

/**
 * Streams a multipart request to a temporary folder with busboy: the `files` parts become files on disk
 * (never buffered in memory), the other parts string fields. Over the size limit -> 413; more files or
 * fields than allowed, or a malformed body -> 400. A request that is not multipart yields no files
 * (its JSON body, if any, must have been parsed by the caller).
 */
export async function readUploadRequest(req: IncomingMessage, limits: UploadLimits): Promise<UploadRequest> {
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'content-router-upload-'));
  const cleanup = () => rm(workDir, { recursive: true, force: true });
  const type = String(req.headers['content-type'] ?? '');
  try {
    if (/^application\/(.+\+)?json/i.test(type) && !req.readableEnded) {
      return { fields: {}, files: [], json: await readJson(req, limits.maxFieldSize), workDir, cleanup };
    }
    if (!/^multipart\/form-data/i.test(type)) {
      drainRequest(req); // a body of another type is not read: thrown away (bounded), the answer can go at once
      return { fields: {}, files: [], workDir, cleanup };
    }
    const { fields, files } = await parseMultipart(req, limits, workDir);
    return { fields, files, workDir, cleanup };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

function parseMultipart(req: IncomingMessage, limits: UploadLimits, workDir: string): Promise<{ fields: Record<string, string>; files: ReceivedFile[] }> {
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = Object.create(null) as Record<string, string>;
    const files: ReceivedFile[] = [];
    const writes: Promise<void>[] = [];
    let failure: Error | null = null;
    const fail = (err: Error) => {
      if (failure) return;
      failure = err;
      req.unpipe(bb);
      drainRequest(req); // the rest is thrown away (bounded) so the client can read the answer
      reject(err);
    };
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: req.headers,
        limits: { files: limits.maxFiles, fileSize: limits.sizeLimit, fields: 20, fieldSize: limits.maxFieldSize, parts: limits.maxFiles + 20 },
      });
    } catch {
      reject(new ValidationError('Invalid multipart body'));
      return;
    }
    bb.on('file', (field, stream, info) => {
      if (field !== FILE_FIELD || failure) {
        stream.resume();
        return;
      }
      const index = files.length;
      const filename = sanitizeFileName(info.filename ?? '');
      const entry: ReceivedFile = { filename, mime: sanitizeMime(info.mimeType), path: path.join(workDir, `upload-${index}`), sizeInBytes: 0 };
      files.push(entry);
      const counter = new Transform({
        transform(chunk: Buffer, _enc, cb) {
          entry.sizeInBytes += chunk.length;
          cb(null, chunk);
        },
      });
      stream.on('limit', () => fail(new PayloadTooLargeError(`${filename} exceeds size limit of ${bytesToHumanReadable(limits.sizeLimit)}.`)));
      writes.push(pipeline(stream, counter, createWriteStream(entry.path)).catch((err: Error) => fail(err)));
    });
    bb.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(new PayloadTooLargeError(`The ${name} field exceeds ${bytesToHumanReadable(limits.maxFieldSize)}.`));
      else if (name !== '__proto__') fields[name] = value;
    });
    bb.on('filesLimit', () => fail(new ValidationError(`Too many files: at most ${limits.maxFiles} per request`)));
    bb.on('fieldsLimit', () => fail(new ValidationError('Too many fields')));
    bb.on('partsLimit', () => fail(new ValidationError('Too many parts')));
    bb.on('error', () => fail(new ValidationError('Invalid multipart body')));
    bb.on('close', () => {
      Promise.all(writes).then(
        () => (failure ? undefined : resolve({ fields, files })),
        (err: Error) => fail(err),
      );
    });
    req.on('error', () => fail(new ValidationError('Invalid multipart body')));
    req.pipe(bb);
  });
}

/** A JSON body of at most `limit` bytes; over it a 413, answered at once while the rest is drained (bounded). */
function readJson(req: IncomingMessage, limit: number): Promise<unknown> {
  const tooLarge = () => new PayloadTooLargeError(`The request body exceeds ${bytesToHumanReadable(limit)}.`);
  if (Number(req.headers['content-length']) > limit) {
    drainRequest(req);
    return Promise.reject(tooLarge());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      req.off('data', onData).off('end', onEnd);
      drainRequest(req);
      reject(tooLarge());
    };
    const onEnd = (): void => {
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.trim() === '') return resolve(undefined);
      try {
        resolve(JSON.parse(text) as unknown);
      } catch {
        reject(new ValidationError('Invalid JSON body'));
      }
    };
    req.on('data', onData).on('end', onEnd).on('error', () => reject(new ValidationError('Invalid JSON body')));
  });
}
