export { formatDocument, formatComponent, type Selection } from './format-document';
export { formatError, type ErrorEnvelope } from './format-error';
export { toV4 } from './format-v4';
export { compileDocumentJson } from './compile-document-json';
