import type { Router } from 'express';
import { ForbiddenError } from '../errors';
import type { OpenApiDocument, OpenApiDocumentOptions } from '../openapi';
import { methodNotAllowed } from './error-handler';
import { getAbility } from './request-context';

/** The `openapi` option of createContentRouter: serve the document at `path` (under the router's mount point). */
export interface OpenApiOption extends OpenApiDocumentOptions {
  /** Default `/openapi.json`. */
  path?: string;
  /**
   * true: anyone may read it. Default false: callers with an API token (or recognised by `auth.resolve`); the
   * Public role gets a 403, as for a route it may not use.
   */
  public?: boolean;
}

/**
 * `GET <path>`: the OpenAPI 3.1 document, its server URL the router's mount point (`req.baseUrl`) unless
 * `serverUrl` is given. Built once per mount point.
 *
 * @example
 * openapiRoute(router, { path: '/openapi.json' }, (serverUrl) => createOpenApiDocument(registry, limits, { serverUrl }));
 */
export function openapiRoute(router: Router, option: OpenApiOption, build: (serverUrl: string) => OpenApiDocument): void {
  const bodies = new Map<string, string>();
  router
    .route(option.path ?? '/openapi.json')
    .get((req, res) => {
      const ability = getAbility(req);
      if (option.public !== true && (ability.subject === 'public' || ability.subject === 'none')) throw new ForbiddenError();
      const serverUrl = option.serverUrl ?? (req.baseUrl || '/');
      let body = bodies.get(serverUrl);
      if (body === undefined) bodies.set(serverUrl, (body = JSON.stringify(build(serverUrl))));
      res.status(200).type('application/json').send(body);
    })
    .all(methodNotAllowed(['GET']));
}
