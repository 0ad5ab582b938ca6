export { formatDocument, formatComponent, type Selection } from './format-document';
export { formatError, type ErrorEnvelope } from './format-error';
export { toV4 } from './format-v4';
export { compileDocumentBytes, compileDocumentJson, type RowWrite } from './compile-document-json';
export { JsonBytes } from './json-bytes';
