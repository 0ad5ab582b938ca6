import type { Engine } from '../engine';
import { indexesFor } from '../engine/indexes';
import { localProvider, type StorageProvider } from '../media';
import { createRegistry, type ComponentSchema, type ContentTypeSchema, type I18nOptions, type Registry } from '../schema';
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
}

export type TransferTarget = RouterTarget | ModelTarget;

/** Where the media files are: a local folder (as `upload.directory`) or a storage provider. */
export interface UploadsOption {
  /** The uploads folder (the local provider's, `public/uploads` in Strapi). */
  readonly directory?: string;
  /** A storage provider to write imported files with (default: the local provider of `directory`). */
  readonly provider?: StorageProvider;
}

/**
 * The types a transfer leaves to a later version: users-permissions' users and roles (auth.users). Their lines in
 * an export are kept aside like Strapi's other own types, and their rows are not exported.
 */
const NOT_TRANSFERRED = /^plugin::users-permissions\./;

/** The model as a transfer sees it: the registry without the types it does not move. */
function transferView(registry: Registry): Registry {
  const contentTypes = new Map([...registry.contentTypes].filter(([uid]) => !NOT_TRANSFERRED.test(uid)));
  if (contentTypes.size === registry.contentTypes.size) return registry;
  return { ...registry, contentTypes };
}

/**
 * The registry and the started engine of a target. A router's start-up is awaited; a bare engine is started
 * with the model's collections and indexes, as `createContentRouter` would.
 */
export async function openTarget(target: TransferTarget): Promise<{ registry: Registry; engine: Engine }> {
  if ('registry' in target) {
    await target.ready;
    return { registry: transferView(target.registry), engine: target.engine };
  }
  const registry = createRegistry({ contentTypes: target.contentTypes, components: target.components, i18n: target.i18n });
  await target.engine.init(indexesFor(registry));
  return { registry: transferView(registry), engine: target.engine };
}

/** The provider imported files are written with. */
export function uploadProvider(uploads: UploadsOption | undefined): StorageProvider {
  if (uploads?.provider) return uploads.provider;
  if (uploads?.directory) return localProvider({ directory: uploads.directory });
  throw new TransferError('uploads: give the uploads folder ({ directory }) or a storage provider ({ provider }) for the media files');
}
