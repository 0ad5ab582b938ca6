import type { Request } from 'express';
import type { EditUrl } from '../format/edit-url';

/**
 * The built-in admins `createAdmin` made for one router (their Express routers), kept on the router under this
 * symbol: the default `preview.editUrl` links to the edit page of the one the same Express app mounts.
 */
export const ADMINS = Symbol('content-router.admins');

export type AdminSet = Set<object>;

/**
 * Where `app` mounts `handle` (`app.use('/admin', handle)`), read from the app's own route table: Express 5's layers
 * keep the path they were given as `rawPath`. Undefined when it is mounted elsewhere (a nested router or app).
 */
export function mountPathOf(app: unknown, handle: unknown): string | undefined {
  const stack = (app as { router?: { stack?: { handle?: unknown; rawPath?: unknown }[] } }).router?.stack ?? [];
  const mounted = stack.find((l) => l.handle === handle)?.rawPath;
  return typeof mounted === 'string' && mounted.startsWith('/') ? mounted.replace(/\/+$/, '') || '/' : undefined;
}

const linksByPath = new Map<string, EditUrl>();

/**
 * The edit page, in the built-in admin the request's app mounts, of a document (the admin's hash routes:
 * `<admin>/#/<pluralName>/<documentId>`, a single type's `<admin>/#/<singularName>`), a path on the API's origin;
 * undefined when no admin of the router is mounted in that app.
 */
export function adminEditUrl(req: Request, admins: AdminSet): EditUrl | undefined {
  if (admins.size === 0) return undefined;
  let mounted: string | undefined;
  for (const admin of admins) if ((mounted = mountPathOf(req.app, admin)) !== undefined) break;
  if (mounted === undefined) return undefined;
  const prefix = `${(req.app as { path?: () => string }).path?.() ?? ''}${mounted === '/' ? '' : mounted}`;
  let link = linksByPath.get(prefix);
  if (!link) {
    link = (v) => (v.kind === 'singleType' ? `${prefix}/#/${encodeURIComponent(v.singularName ?? '')}` : `${prefix}/#/${encodeURIComponent(v.pluralName ?? '')}/${encodeURIComponent(v.documentId ?? '')}`);
    if (linksByPath.size < 64) linksByPath.set(prefix, link);
  }
  return link;
}
