import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { RequestHandler } from 'express';

const FILE_NAME = /^[A-Za-z0-9_-]{1,255}(\.[A-Za-z0-9]{1,16})?$/;

const TYPES: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.tiff': 'image/tiff',
  '.txt': 'text/plain; charset=utf-8',
  '.pdf': 'application/pdf',
};

/**
 * A static handler for the local provider's folder. Only names the provider can write (`<hash><ext>`) are
 * served, so `..`, encoded slashes and dot files never reach the file system. Unknown names fall through
 * to `next()`. Files are sent with `X-Content-Type-Options: nosniff`; types other than images, text and
 * PDF are sent as `application/octet-stream` attachments (no stored HTML or SVG runs in the site's origin).
 *
 * @example app.use('/uploads', serveUploads(path.join(__dirname, 'public/uploads')));
 */
export function serveUploads(directory: string): RequestHandler {
  const root = path.resolve(directory);
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    let name: string;
    try {
      name = decodeURIComponent((req.path ?? '').replace(/^\//, ''));
    } catch {
      return next();
    }
    if (!FILE_NAME.test(name)) return next();
    const file = path.join(root, name);
    stat(file).then(
      (info) => {
        if (!info.isFile()) return next();
        const type = TYPES[path.extname(name).toLowerCase()];
        res.setHeader('Content-Type', type ?? 'application/octet-stream');
        if (!type) res.setHeader('Content-Disposition', 'attachment');
        res.setHeader('X-Content-Type-Options', 'nosniff');
        res.setHeader('Content-Length', String(info.size));
        res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
        if (req.method === 'HEAD') return void res.end();
        const stream = createReadStream(file);
        stream.on('error', next);
        stream.pipe(res);
      },
      () => next(),
    );
  };
}
