import { ConfigurationError } from '../../../lib/errors';
import { createRegistry, type RegistryInput } from '../../../lib/schema';

/** The ConfigurationError `createRegistry(input)` throws; fails the test when it accepts the definitions. */
export function registryFailure(input: RegistryInput): ConfigurationError {
  try {
    createRegistry(input);
  } catch (e) {
    if (e instanceof ConfigurationError) return e;
    throw e;
  }
  throw new Error('createRegistry accepted the definitions');
}
