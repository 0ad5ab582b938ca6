export { importStrapiExport, type ImportOptions, type ImportResult } from './import-strapi-export';
export { exportStrapiExport, STRAPI_VERSION, type AssetRef, type ExportOptions, type ExportResult } from './export-strapi-export';
export { TransferError } from './transfer-error';
export type { TransferLimits } from './transfer-limits';
export type { ModelTarget, RouterTarget, TransferTarget, UploadsOption } from './transfer-target';
export type { OnTransferProgress, TransferProgressEvent } from './progress';
export { formatProgress } from './format-progress';
