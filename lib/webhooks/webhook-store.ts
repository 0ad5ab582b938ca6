import type { Engine, IndexSpec, Row } from '../engine';
import { NotFoundError, ValidationError } from '../errors';
import { WEBHOOK_EVENTS, type WebhookEventName } from './event-names';
import { checkDefinition, type WebhookDefinition } from './webhook-options';

/** Where webhooks are stored (one row each); the leading underscore keeps it apart from content types. */
export const WEBHOOKS_COLLECTION = '_webhooks';
export const WEBHOOKS_INDEXES: readonly IndexSpec[] = [{ name: 'webhook_id', keys: { id: 1 }, unique: true }];

/** A stored webhook as the host API answers it (the secret stays stored: `signed` says there is one). */
export interface Webhook {
  readonly id: string;
  readonly name: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly events: readonly WebhookEventName[];
  readonly enabled: boolean;
  readonly signed: boolean;
  readonly timeoutMS: number | null;
  /** `options`: from `webhooks.endpoints`, written again at every start-up; `api`: added at run time. */
  readonly source: 'options' | 'api';
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** A stored webhook with its secret, as the deliverer needs it. */
export interface StoredWebhook extends Webhook {
  readonly secret: string | null;
}

function toStored(row: Row): StoredWebhook {
  return Object.freeze({
    id: String(row.id),
    name: String(row.name ?? row.id),
    url: String(row.url),
    headers: Object.freeze({ ...((row.headers as Record<string, string> | undefined) ?? {}) }),
    events: Object.freeze([...((row.events as WebhookEventName[] | undefined) ?? WEBHOOK_EVENTS)]),
    enabled: row.enabled !== false,
    signed: typeof row.secret === 'string',
    secret: typeof row.secret === 'string' ? row.secret : null,
    timeoutMS: typeof row.timeoutMS === 'number' ? row.timeoutMS : null,
    source: row.source === 'options' ? 'options' : 'api',
    createdAt: String(row.createdAt),
    updatedAt: String(row.updatedAt),
  });
}

/** The public view: everything but the secret. */
export function publicWebhook(hook: StoredWebhook): Webhook {
  const { secret, ...rest } = hook;
  void secret;
  return Object.freeze(rest);
}

/** What `update()` takes: a definition's keys but `id`; `secret: null` / `timeoutMS: null` remove them. */
export type WebhookChanges = Partial<Omit<WebhookDefinition, 'id' | 'secret' | 'timeoutMS'>> & { secret?: string | null; timeoutMS?: number | null };

function rowOf(def: WebhookChanges, base: Row): Row {
  const row: Row = { ...base };
  for (const key of ['name', 'url', 'headers', 'events', 'enabled', 'secret', 'timeoutMS'] as const) {
    if (def[key] === null) delete row[key];
    else if (def[key] !== undefined) row[key] = def[key];
  }
  return row;
}

/**
 * The webhooks, stored through the engine (so they survive a restart and every instance sees them) and cached:
 * the cache is read on every write (which webhooks an event goes to) and refreshed by the deliverer's poll, so a
 * change made on another instance applies here within `webhooks.pollMS`.
 */
export class WebhookStore {
  private cache: readonly StoredWebhook[] = [];

  constructor(private readonly engine: Engine, private readonly clock: () => Date) {}

  /** The cached webhooks (enabled or not). */
  cached(): readonly StoredWebhook[] {
    return this.cache;
  }

  async refresh(): Promise<readonly StoredWebhook[]> {
    const rows = await this.engine.find(WEBHOOKS_COLLECTION, {}, { sort: { createdAt: 1, id: 1 } });
    this.cache = Object.freeze(rows.map(toStored));
    return this.cache;
  }

  /** Writes the webhooks of the options (replacing their stored versions) and drops options webhooks no longer there. */
  async seed(endpoints: readonly WebhookDefinition[]): Promise<void> {
    const at = this.clock().toISOString();
    await this.engine.transaction(async () => {
      const ids = endpoints.map((e) => e.id);
      await this.engine.deleteMany(WEBHOOKS_COLLECTION, { source: 'options', id: { $nin: ids } });
      for (const def of endpoints) {
        const [found] = await this.engine.find(WEBHOOKS_COLLECTION, { id: def.id });
        const row = rowOf(def, { id: def.id, name: def.name ?? def.id, source: 'options', createdAt: found?.createdAt ?? at, updatedAt: at });
        if (found) await this.engine.replaceOne(WEBHOOKS_COLLECTION, { id: def.id }, row);
        else await this.engine.insertMany(WEBHOOKS_COLLECTION, [row]);
      }
    });
    await this.refresh();
  }

  async create(input: WebhookDefinition): Promise<StoredWebhook> {
    checkDefinition(input, false);
    const at = this.clock().toISOString();
    const row = rowOf(input, { id: input.id, name: input.name ?? input.id, source: 'api', createdAt: at, updatedAt: at });
    await this.engine.transaction(async () => {
      if ((await this.engine.count(WEBHOOKS_COLLECTION, { id: input.id })) > 0) {
        throw new ValidationError(`A webhook with the id ${JSON.stringify(input.id)} already exists`, { key: 'id' });
      }
      await this.engine.insertMany(WEBHOOKS_COLLECTION, [row]);
    });
    await this.refresh();
    return toStored(row);
  }

  async update(id: string, changes: WebhookChanges): Promise<StoredWebhook> {
    checkDefinition(changes, true);
    if ('id' in (changes as object)) throw new ValidationError('A webhook id cannot change', { key: 'id' });
    let next: Row | undefined;
    await this.engine.transaction(async () => {
      const [found] = await this.engine.find(WEBHOOKS_COLLECTION, { id });
      if (!found) throw new NotFoundError(`No webhook with the id ${JSON.stringify(id)}`);
      const { _id, ...rest } = found;
      void _id;
      next = rowOf(changes, { ...rest, updatedAt: this.clock().toISOString() });
      await this.engine.replaceOne(WEBHOOKS_COLLECTION, { id }, next);
    });
    await this.refresh();
    return toStored(next!);
  }

  /** Removes a webhook; false when there is none with that id. */
  async remove(id: string): Promise<boolean> {
    const removed = await this.engine.deleteMany(WEBHOOKS_COLLECTION, { id });
    await this.refresh();
    return removed > 0;
  }
}
