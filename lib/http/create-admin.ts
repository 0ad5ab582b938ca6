import fs from 'node:fs';
import path from 'node:path';
import express, { Router, type Request, type Response } from 'express';
import { ConfigurationError } from '../errors';
import { ADMINS, mountPathOf, type AdminSet } from './admin-links';

/** Options of {@link createAdmin}. */
export interface AdminOptions {
  /**
   * Where the admin finds the Content API, as the browser reaches it (`config.json`'s `apiUrl`): a path (`/api`) or
   * an absolute URL. Default: the path the same Express app mounts the router at (`app.use('/api', router)`), else `/api`.
   */
  apiUrl?: string;
  /** The built single-page app (its `index.html` and `assets/`); default the package's own `dist/admin`. */
  assetsDir?: string;
}

/** The package's built admin: `<package root>/dist/admin`, from `dist/http/` and from `lib/http/` alike. */
export const DEFAULT_ADMIN_DIR = path.resolve(__dirname, '..', '..', 'dist', 'admin');

/** Vite's content-hashed output: a year, never revalidated (RFC 8246). */
const IMMUTABLE = '1y';
const NO_CACHE = 'no-cache';

/**
 * The built-in admin (docs/admin.md): Express middleware serving the prebuilt single-page app, mounted wherever the
 * host likes. It reads `GET <mount>/config.json` (`{ apiUrl }`) and then only the Content API: the model endpoint
 * (`/content-router/model`), logins, documents, media. Files come from `express.static` (serve-static: no path
 * traversal, dot files ignored); `assets/` (content-hashed names) is cached for a year, `index.html` and
 * everything else revalidate (`no-cache`). A GET of a path without a file extension (a client-side route) answers
 * `index.html`; other unknown paths fall through to `next()`. Throws `CR_ADMIN_NOT_BUILT` at once when the app is not
 * built (`npm run build` in a checkout), `CR_INVALID_OPTIONS` for a bad option.
 *
 * @example
 * const router = createContentRouter({ ... });
 * app.use('/api', router);
 * app.use('/admin', createAdmin(router)); // http://localhost:1337/admin/
 */
export function createAdmin(router: Router, options: AdminOptions = {}): Router {
  checkOptions(router, options);
  const root = path.resolve(options.assetsDir ?? DEFAULT_ADMIN_DIR);
  const index = fs.readFileSync(checkAdminBuilt(root), 'utf8');
  const apiUrls = new WeakMap<object, string>();
  const apiUrlOf = (req: Request): string => {
    if (options.apiUrl !== undefined) return options.apiUrl;
    let url = apiUrls.get(req.app);
    if (url === undefined) apiUrls.set(req.app, (url = mountPathOf(req.app, router) ?? '/api'));
    return url;
  };
  const sendIndex = (req: Request, res: Response): void => {
    res.set('Cache-Control', NO_CACHE).type('html').send(withBase(index, `${req.baseUrl}/`));
  };

  const admin = Router({ strict: true });
  admin.get('/config.json', (req, res) => {
    res.set('Cache-Control', NO_CACHE).json({ apiUrl: apiUrlOf(req) });
  });
  admin.get(['/', '/index.html'], (req, res) => {
    // `/admin` without its slash: the page's relative URLs would resolve against `/`.
    if (req.path === '/' && !req.originalUrl.split('?')[0]!.endsWith('/')) return res.redirect(301, `${req.baseUrl}/`);
    sendIndex(req, res);
  });
  admin.use('/assets', express.static(path.join(root, 'assets'), { index: false, redirect: false, maxAge: IMMUTABLE, immutable: true }));
  admin.use(express.static(root, { index: false, redirect: false, setHeaders: (res) => res.setHeader('Cache-Control', NO_CACHE) }));
  admin.get(/.*/, (req, res, next) => {
    const last = req.path.slice(req.path.lastIndexOf('/') + 1);
    if (req.path.startsWith('/assets/') || last.includes('.')) return next();
    sendIndex(req, res);
  });
  // The default preview.editUrl links to this admin's edit pages wherever the host mounts it (docs/preview.md).
  (router as unknown as { [ADMINS]?: AdminSet })[ADMINS]?.add(admin);
  return admin;
}

/**
 * The built admin's `index.html` in `root` (default the package's `dist/admin`), or `CR_ADMIN_NOT_BUILT` saying how to
 * build it: `content-router serve --admin` checks it before it opens the store.
 */
export function checkAdminBuilt(root: string = DEFAULT_ADMIN_DIR): string {
  const indexFile = path.join(path.resolve(root), 'index.html');
  if (!fs.existsSync(indexFile)) {
    throw new ConfigurationError(
      'CR_ADMIN_NOT_BUILT',
      `createAdmin: the admin is not built (${indexFile} is missing). In a checkout of content-router run \`npm run build\` ` +
        '(the npm package ships it built), or give `assetsDir` the folder of your own build.',
    );
  }
  return indexFile;
}

function checkOptions(router: unknown, options: AdminOptions): void {
  const invalid = (message: string): ConfigurationError => new ConfigurationError('CR_INVALID_OPTIONS', `createAdmin: ${message}`);
  if (typeof router !== 'function' || !('registry' in router)) throw invalid('the first argument must be the router createContentRouter returned');
  if (options === null || typeof options !== 'object' || Array.isArray(options)) throw invalid('options must be an object');
  for (const key of Object.keys(options)) {
    if (key !== 'apiUrl' && key !== 'assetsDir') throw invalid(`options.${key}: unknown option; allowed: apiUrl, assetsDir`);
  }
  if (options.apiUrl !== undefined && (typeof options.apiUrl !== 'string' || !/^(\/|https?:\/\/)/.test(options.apiUrl))) {
    throw invalid('options.apiUrl must be a path (/api) or an http(s) URL');
  }
  if (options.assetsDir !== undefined && (typeof options.assetsDir !== 'string' || options.assetsDir === '')) throw invalid('options.assetsDir must be a folder path');
}

/** `index.html` with `<base href>` at the mount point: its relative URLs resolve there from any client route. */
function withBase(html: string, href: string): string {
  if (/<base\s/i.test(html)) return html;
  const tag = `<base href="${escapeAttribute(href)}">`;
  const head = /<head[^>]*>/i.exec(html);
  return head ? html.slice(0, head.index + head[0].length) + tag + html.slice(head.index + head[0].length) : tag + html;
}

const escapeAttribute = (text: string): string => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
