import express, { type Express, type RequestHandler } from 'express';
import type { Router } from 'express';
import { ServiceUnavailableError } from '../errors';
import { formatError } from '../format/format-error';
import { createAdmin, type AdminOptions } from './create-admin';
import { createCorsMiddleware, type CorsOptions } from './cors';
import { healthCheck } from './health-route';
import { serveUploads } from './serve-uploads';

/** While `state.importing`, the API answers 503 with Retry-After, as the router does while it starts. */
function whileImporting(state: { readonly importing: boolean }): RequestHandler {
  return (_req, res, next) => {
    if (!state.importing) return next();
    res.status(503).set('Retry-After', '5').json(formatError(new ServiceUnavailableError('importing the export given with --import; try again shortly')));
  };
}

/** A served project: the app, and how to mount the router once it is built. */
export interface ProjectApp {
  readonly app: Express;
  /**
   * Mounts what Strapi serves: CORS for every path (Strapi's `strapi::cors` is global), Strapi's `/_health`, the
   * uploads at `/uploads`, the API at `prefix` (503 while `state.importing`), and with `admin` the built-in admin at
   * `/admin`, where Strapi has its own (`CR_ADMIN_NOT_BUILT` when it is not built).
   */
  mount(router: Router, settings: { prefix: string; uploadsDir: string; cors?: boolean | CorsOptions; state: { readonly importing: boolean }; admin?: AdminOptions }): void;
}

/**
 * The Express app of `content-router serve`, created before the router so that it can listen first (a port in use
 * fails before the store is opened).
 *
 * @example
 * const { app, mount } = createProjectApp();
 * app.listen(1337, () => mount(router, { prefix: '/api', uploadsDir: 'public/uploads', cors: true, state: { importing: false } }));
 */
export function createProjectApp(): ProjectApp {
  const app = express();
  app.disable('x-powered-by');
  return {
    app,
    mount(router, { prefix, uploadsDir, cors, state, admin }) {
      const adminApp = admin && createAdmin(router, { apiUrl: prefix, ...admin }); // before anything is mounted: it may throw
      if (cors) app.use(createCorsMiddleware(cors));
      app.all('/_health', healthCheck(router));
      app.use('/uploads', serveUploads(uploadsDir));
      app.use(prefix, whileImporting(state), router);
      if (adminApp) app.use('/admin', adminApp);
    },
  };
}
