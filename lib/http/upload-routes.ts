import path from 'node:path';
import type { Router } from 'express';
import type { Engine } from '../engine';
import { createMediaService, localProvider, type FileEvents, type SharpSettings, type StorageProvider } from '../media';
import type { RestLimits } from '../query';
import type { Registry } from '../schema';
import { prepareUploadLink } from '../documents/link-uploaded-files';
import { createUploadRouter } from './upload-router';
import type { ReadCacheControl } from './cache-control';

/** Options of the media library. */
export interface UploadOptions {
  /** Where files go; default: the local provider writing to `directory`. */
  provider?: StorageProvider;
  /** Folder of the local provider; default `./public/uploads`. */
  directory?: string;
  /** Maximum size of one file in bytes; default 200 MB. */
  sizeLimit?: number;
  /** Responsive image breakpoints; default `{ large: 1000, medium: 750, small: 500 }`. */
  breakpoints?: Record<string, number>;
  /** Files per request; more is a 400. Default 20. */
  maxFiles?: number;
  /** Most pixels (width x height) of an uploaded image; larger ones are a 400 before decoding. Default 50 000 000. */
  maxPixels?: number;
  /** Most pixels of all the images of one upload request; more is a 400 before decoding. Default 100 000 000. */
  maxRequestPixels?: number;
  /** sharp's process-wide `cache` and `concurrency` (Strapi's `upload.sharp`); default `{ cache: false, concurrency: 1 }`; `false` leaves sharp as it is. */
  sharp?: SharpSettings | false;
}

/** The `/upload` routes of the media library. */
export function uploadRoutes(deps: UploadOptions & { registry: Registry; engine: Engine; rest?: RestLimits; documentId?: () => string; events?: FileEvents; cacheControl?: ReadCacheControl }): Router {
  const provider = deps.provider ?? localProvider({ directory: deps.directory ?? path.resolve('public', 'uploads') });
  const media = createMediaService({
    engine: deps.engine,
    registry: deps.registry,
    provider,
    sizeLimit: deps.sizeLimit,
    breakpoints: deps.breakpoints,
    maxFiles: deps.maxFiles,
    maxPixels: deps.maxPixels,
    maxRequestPixels: deps.maxRequestPixels,
    sharp: deps.sharp,
    documentId: deps.documentId,
    events: deps.events,
    rest: deps.rest,
  });
  return createUploadRouter(media, {
    cacheControl: deps.cacheControl,
    prepareLink: (can) => (fields) => prepareUploadLink({ engine: deps.engine, registry: deps.registry, can }, fields),
  });
}
