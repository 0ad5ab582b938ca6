import type { Engine } from '../engine';
import { indexesFor } from '../engine/indexes';
import { localProvider, type StorageProvider } from '../media';
import { createRegistry, type ComponentSchema, type ContentTypeSchema, type I18nOptions, type Registry } from '../schema';
import { usersContentTypes } from '../users-permissions/content-types';
import { TransferError } from './transfer-error';

/** A running router (`createContentRouter(...)`): its model and engine, started. */
export interface RouterTarget {
  readonly registry: Registry;
  readonly engine: Engine;
  readonly ready: Promise<void>;
}

/** An engine and a model given as `createContentRouter` takes them: the engine is started here. */
export interface ModelTarget {
  readonly engine: Engine;
  readonly contentTypes: readonly ContentTypeSchema[];
  readonly components?: Readonly<Record<string, ComponentSchema>>;
  readonly i18n?: I18nOptions;
  /**
   * The users-and-permissions types, as `auth.users` adds them (`true`, or `{ userSchema }`: the project's
   * extension of the user type, as `auth.users.userSchema`): users, roles and their grants move with the data.
   * Without it they are kept aside (docs/transfer.md).
   */
  readonly users?: boolean | { readonly userSchema?: { readonly attributes?: Readonly<Record<string, unknown>> } };
}

export type TransferTarget = RouterTarget | ModelTarget;

/** Where the media files are: a local folder (as `upload.directory`) or a storage provider. */
export interface UploadsOption {
  /** The uploads folder (the local provider's, `public/uploads` in Strapi). */
  readonly directory?: string;
  /** A storage provider to write imported files with (default: the local provider of `directory`). */
  readonly provider?: StorageProvider;
}

/** The model's content types, with the users-permissions ones when the target asks for them. */
function modelContentTypes(target: ModelTarget): readonly ContentTypeSchema[] {
  if (!target.users) return target.contentTypes;
  const attributes = target.users === true ? {} : (target.users.userSchema?.attributes ?? {});
  return [...target.contentTypes, ...(usersContentTypes(attributes) as unknown as ContentTypeSchema[])];
}

/**
 * The registry and the started engine of a target. A router's start-up is awaited; a bare engine is started
 * with the model's collections and indexes, as `createContentRouter` would.
 */
export async function openTarget(target: TransferTarget): Promise<{ registry: Registry; engine: Engine }> {
  if ('registry' in target) {
    await target.ready;
    return { registry: target.registry, engine: target.engine };
  }
  const registry = createRegistry({ contentTypes: modelContentTypes(target), components: target.components, i18n: target.i18n });
  await target.engine.init(indexesFor(registry));
  return { registry, engine: target.engine };
}

/** The provider imported files are written with. */
export function uploadProvider(uploads: UploadsOption | undefined): StorageProvider {
  if (uploads?.provider) return uploads.provider;
  if (uploads?.directory) return localProvider({ directory: uploads.directory });
  throw new TransferError('uploads: give the uploads folder ({ directory }) or a storage provider ({ provider }) for the media files');
}
