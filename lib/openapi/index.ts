export { createOpenApiDocument, type OpenApiDocument, type OpenApiDocumentOptions } from './create-openapi-document';
