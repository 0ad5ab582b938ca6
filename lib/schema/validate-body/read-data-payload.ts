import { ValidationError } from '../../errors';
import { assertSafeStructure } from './body-errors';

const MISSING_DATA = 'Missing "data" payload in the request body';

/**
 * Reads the `data` key of a write request's body, as Strapi's controllers do: the body must be an object
 * whose `data` is an object (an array gets through, and is rejected by the body validator with yup's
 * message). Anything else is `400 Missing "data" payload in the request body` with empty details.
 *
 * @example
 * const data = readDataPayload(req.body); // then validator.validate(data, { action: 'create', draft: false })
 */
export function readDataPayload(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new ValidationError(MISSING_DATA, {});
  if (!Object.prototype.hasOwnProperty.call(body, 'data')) throw new ValidationError(MISSING_DATA, {});
  const data = (body as { data?: unknown }).data;
  if (data === null || typeof data !== 'object') throw new ValidationError(MISSING_DATA, {});
  assertSafeStructure(data);
  return data;
}
