import type { Request, Router } from 'express';
import type { Ability } from '../auth/types';
import { ConfigurationError } from '../errors';
import { describeModel, type ModelCaller, type ModelSources } from './describe-model';
import type { Registry } from '../schema';
import { methodNotAllowed } from './error-handler';
import { getAbility } from './request-context';

/** The path of the model endpoint under the router's mount point. */
export const MODEL_PATH = '/content-router/model';

/** What the model route needs: the registry, display names, and who the caller is. */
export interface ModelRouteDeps extends ModelSources {
  readonly registry: Registry;
  /** The caller of a request as the answer's `caller` tells it (null: the Public role). */
  readonly describeCaller: (req: Request, ability: Ability) => Promise<ModelCaller>;
}

/**
 * `GET /content-router/model`: the model and the caller's permissions for the admin (docs/admin.md), in the data
 * envelope, `Cache-Control: no-store` (it depends on the caller and on the role's grants of the moment). Any
 * caller may ask; an invalid token is the auth middleware's 401 before it.
 *
 * A collection type whose pluralName is `content-router` would have its `/content-router/:documentId` route shadowed
 * by this one: such a model is refused at start-up (`CR_DUPLICATE_API_ID`), rather than one of the two silently
 * never answering.
 *
 * @example
 * modelRoute(router, { registry, displayNames, upload: true, describeCaller: async () => null });
 */
export function modelRoute(router: Router, deps: ModelRouteDeps): void {
  const clash = deps.registry.byRoute('content-router');
  if (clash && clash.kind === 'collectionType') {
    throw new ConfigurationError(
      'CR_DUPLICATE_API_ID',
      `${clash.uid}: the pluralName "content-router" is reserved: its route /content-router/:documentId would clash with the model endpoint ` +
        `GET ${MODEL_PATH} the admin reads (docs/admin.md). Rename info.pluralName.`,
    );
  }
  router
    .route(MODEL_PATH)
    .get(async (req, res) => {
      const ability = getAbility(req);
      const caller = await deps.describeCaller(req, ability);
      res.set('Cache-Control', 'no-store');
      res.status(200).json({ data: describeModel(deps.registry, ability, caller, deps), meta: {} });
    })
    .all(methodNotAllowed(['GET']));
}
