export { createBodyValidator, type BodyValidator, type ValidateMode } from './create-body-validator';
export { readDataPayload } from './read-data-payload';
export { uniqueError, entityFieldError, MAX_BODY_DEPTH } from './body-errors';
export { printValue } from './print-value';
