export * from './types';
export { createRegistry, type RegistryInput } from './create-registry';
export { CUSTOM_FIELD_TYPES, type CustomFieldOption, type CustomFieldsOption } from './custom-fields';
export { createBodyValidator, readDataPayload, uniqueError, entityFieldError, type BodyValidator, type ValidateMode } from './validate-body';
export type { AttributeSchema, ContentTypeSchema, ComponentSchema } from './schema-json';
export { INVERSE_ORDER_FIELD, inverseOrderSide, type InverseOrderSide } from './inverse-order';
