export * from './types';
export { createRegistry, type RegistryInput } from './create-registry';
