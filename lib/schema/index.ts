export * from './types';
export { createRegistry, type RegistryInput } from './create-registry';
export { createBodyValidator, readDataPayload, uniqueError, entityFieldError, type BodyValidator, type ValidateMode } from './validate-body';
export type { AttributeSchema, ContentTypeSchema, ComponentSchema } from './schema-json';
