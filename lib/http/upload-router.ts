import { type Request, type RequestHandler, Router } from 'express';
import qs from 'qs';
import { ForbiddenError, NotFoundError, ValidationError } from '../errors';
import { type FileSelection, type MediaService, type PrepareFileLink, toMediaFile } from '../media';
import { getAbility, rawQueryString } from './request-context';
import type { ReadCacheControl } from './cache-control';

const ACTION = 'plugin::upload.content-api';
const MEDIA_UID = 'plugin::upload.file';

/** Options of the `/upload` router. */
export interface UploadRouterOptions {
  /** Permission prefix checked on each route (`<prefix>.find|findOne|upload|destroy`). Default Strapi's. */
  actionPrefix?: string;
  /** Links an upload to an entry (`ref`, `refId`, `field`) for a caller who may do `can(action)`. */
  prepareLink?: (can: (action: string) => boolean) => PrepareFileLink;
  /** Sets the Cache-Control of a read's answer (the `cacheControl` option's `plugin::upload.file`). */
  cacheControl?: ReadCacheControl;
}

/** `'12'` -> 12; anything that is not a plain positive integer -> null. */
function parseId(raw: unknown): number | null {
  if (typeof raw !== 'string' || !/^[1-9][0-9]{0,15}$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : null;
}

function answer(file: FileSelection) {
  return toMediaFile(file);
}

/**
 * The upload plugin's Content API, to mount at `/upload` under the API prefix:
 * `POST /` (upload; `?id=` updates a file's info or replaces its content), `GET /files` (a content-type query on
 * `plugin::upload.file`: filters, sort, fields, pagination), `GET /files/:id`, `DELETE /files/:id`. Answers are
 * bare (no `data` envelope, no `meta`) and carry `isUrlSigned: false`, as Strapi 5's.
 * Each route checks the caller's ability (`plugin::upload.content-api.find|findOne|upload|destroy`) before
 * reading the body; errors go to `next(err)` for the Strapi error envelope.
 *
 * @example router.use('/upload', createUploadRouter(createMediaService({ engine, registry, provider })));
 */
export function createUploadRouter(media: MediaService, options: UploadRouterOptions = {}): Router {
  const prefix = options.actionPrefix ?? ACTION;
  const router = Router();
  const allow = (action: string): RequestHandler => (req, _res, next) => {
    next(getAbility(req).can(`${prefix}.${action}`) ? undefined : new ForbiddenError());
  };

  // The caller's ability is the query's context, as on content routes: what it may find, it may filter on.
  router.get('/files', allow('find'), async (req, res) => {
    const files = await media.findMany(rawQueryString(req), { context: getAbility(req) });
    options.cacheControl?.(req, res, MEDIA_UID, 'find');
    res.status(200).json(files.map(answer));
  });

  router.get('/files/:id', allow('findOne'), async (req, res) => {
    // Strapi checks the query before it reads the file: a bad query is a 400 whatever the id.
    const id = parseId(req.params.id);
    const file = await media.findOne(id ?? Number.NaN, { query: rawQueryString(req), context: getAbility(req) });
    if (!file) throw new NotFoundError('file.notFound');
    options.cacheControl?.(req, res, MEDIA_UID, 'findOne');
    res.status(200).json(answer(file));
  });

  router.delete('/files/:id', allow('destroy'), async (req, res) => {
    const id = parseId(req.params.id);
    if (id === null) throw new NotFoundError('file.notFound');
    res.status(200).json(answer(await media.delete(id)));
  });

  router.post('/', allow('upload'), async (req, res) => {
    const rawId = targetId(req);
    if (rawId === undefined) {
      const ability = getAbility(req);
      const files = await media.upload(req, options.prepareLink ? { prepareLink: options.prepareLink((action) => ability.can(action)) } : {});
      res.status(201).json(files.map(answer));
      return;
    }
    const id = parseId(rawId);
    if (id === null) throw new NotFoundError('Entity not found');
    res.status(200).json(answer(await media.updateFromRequest(id, req, (req as Request & { body?: unknown }).body)));
  });

  return router;
}

/** The `id` query parameter of `POST /upload?id=`: undefined when absent; a 400 when not a single value. */
function targetId(req: Request): string | undefined {
  const query = qs.parse(rawQueryString(req), { depth: 1 });
  const id = query.id;
  if (id === undefined || id === '') return undefined;
  if (typeof id !== 'string') throw new ValidationError('File id is required and must be a single value');
  return id;
}
