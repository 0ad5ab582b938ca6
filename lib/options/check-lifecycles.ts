import { ConfigurationError } from '../errors';
import type { LifecycleName } from '../documents';
import type { Registry } from '../schema';
import { unknownKeyMessage } from '../errors/did-you-mean';

const HOOKS: readonly LifecycleName[] = [
  'beforeCreate', 'afterCreate', 'beforeUpdate', 'afterUpdate', 'beforeDelete', 'afterDelete', 'beforePublish', 'afterPublish',
];

/**
 * `options.lifecycles` names content types of the registry and hooks the document service runs: a hook under a
 * misspelled uid or name would never run, so it is refused at start-up (`CR_INVALID_OPTIONS`, with a did-you-mean).
 *
 * @example
 * checkLifecycles({ 'api::articel.articel': { beforeCreate } }, registry);
 * // throws 'options.lifecycles.api::articel.articel: unknown content type (did you mean "api::article.article"?); ...'
 */
export function checkLifecycles(lifecycles: unknown, registry: Registry): void {
  if (lifecycles === undefined) return;
  const uids = [...registry.contentTypes.keys()];
  for (const [uid, hooks] of Object.entries(lifecycles as Record<string, unknown>)) {
    if (!registry.contentTypes.has(uid)) {
      throw new ConfigurationError('CR_INVALID_OPTIONS', unknownKeyMessage('options.lifecycles', uid, uids, 'content type'));
    }
    if (typeof hooks !== 'object' || hooks === null) {
      throw new ConfigurationError('CR_INVALID_OPTIONS', `options.lifecycles.${uid} must be an object of hooks (${HOOKS.join(', ')})`);
    }
    for (const [name, hook] of Object.entries(hooks)) {
      if (!(HOOKS as readonly string[]).includes(name)) {
        throw new ConfigurationError('CR_INVALID_OPTIONS', unknownKeyMessage(`options.lifecycles.${uid}`, name, HOOKS, 'hook'));
      }
      if (typeof hook !== 'function') {
        throw new ConfigurationError('CR_INVALID_OPTIONS', `options.lifecycles.${uid}.${name} must be a function (event) => unknown`);
      }
    }
  }
}
