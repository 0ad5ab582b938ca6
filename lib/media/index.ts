export type { DisallowedFile, FileFormat, FileInfo, FileRow, MediaFile, MediaService, ProviderFile, PublicFile, StorageProvider, StoredFileRef } from './types';
export { createMediaService, FILES_COLLECTION, type MediaServiceOptions } from './create-media-service';
export { localProvider, type LocalProviderOptions } from './local-provider';
export { toMediaFile, toPublicFile } from './format-file';
export { mediaPaths, mimeAllowed, removeFileFromRow } from './media-references';
export { DEFAULT_BREAKPOINTS } from './process-image';
export { parseFilesQuery, type FilesQuery } from './parse-files-query';
