import express from 'express';
import request from 'supertest';
import { createContentRouter, type AttributeSchema, type Engine } from '../../../lib';
import { everyActionPublic } from '../../helpers/every-action';
import { prng } from '../../helpers/prng';
import { testEngine } from '../../helpers/test-engine';

/**
 * Per-parent populate pagination (`populate[<rel>][start|limit|withCount]`) against a brute-force reference
 * computed from the stored rows, on random models and data (seeded: the seed is in each test's name; run one
 * with POPULATE_PAGE_SEED=<n>). Each seed builds a model of shelves and items whose relation kinds and draft &
 * publish are drawn, stores random relations, then checks random reads: every parent's page is the slice of its
 * related rows (scope, filters, order) and `meta.<rel>.count` their number.
 */

type Json = Record<string, unknown>;
type Random = () => number;

const SEEDS = process.env.POPULATE_PAGE_SEED ? [Number(process.env.POPULATE_PAGE_SEED)] : [11, 23, 37, 41, 59, 67];
const TAGS = ['red', 'green', 'blue'];

const int = (r: Random, n: number): number => Math.floor(r() * n);
const pick = <T>(r: Random, list: readonly T[]): T => list[int(r, list.length)]!;
function shuffled<T>(r: Random, list: readonly T[]): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = int(r, i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

interface World {
  readonly seed: number;
  readonly engine: Engine;
  readonly app: express.Express;
  /** `items` is manyToMany (inverse `item.shelves` to-many) or oneToMany (inverse `item.shelf` to-one). */
  readonly manyToMany: boolean;
  readonly itemsDraftAndPublish: boolean;
}

function model(manyToMany: boolean, itemsDraftAndPublish: boolean) {
  const type = (singular: string, plural: string, attributes: Record<string, AttributeSchema>, draftAndPublish: boolean) => ({
    kind: 'collectionType', collectionName: plural, info: { singularName: singular, pluralName: plural, displayName: singular },
    options: { draftAndPublish }, attributes,
  });
  const inverse: Record<string, AttributeSchema> = manyToMany
    ? { shelves: { type: 'relation', relation: 'manyToMany', target: 'api::shelf.shelf', mappedBy: 'items' } }
    : { shelf: { type: 'relation', relation: 'manyToOne', target: 'api::shelf.shelf', mappedBy: 'items' } };
  return [
    type('shelf', 'shelves', {
      name: { type: 'string' },
      items: { type: 'relation', relation: manyToMany ? 'manyToMany' : 'oneToMany', target: 'api::item.item', inversedBy: manyToMany ? 'shelves' : 'shelf' },
      picks: { type: 'relation', relation: 'manyWay', target: 'api::item.item' },
    }, false),
    type('item', 'items', { rank: { type: 'integer' }, tag: { type: 'string' }, ...inverse }, itemsDraftAndPublish),
  ];
}

async function createWorld(seed: number): Promise<World> {
  const r = prng(seed);
  const manyToMany = r() < 0.6;
  const itemsDraftAndPublish = r() < 0.5;
  const contentTypes = model(manyToMany, itemsDraftAndPublish);
  const engine = testEngine();
  const router = createContentRouter({ contentTypes, engine, upload: false, auth: everyActionPublic(contentTypes), rest: { defaultLimit: 100, maxLimit: 100 } });
  const app = express();
  app.use('/api', router);
  await router.ready;
  const post = async (plural: string, data: Json, query = ''): Promise<string> => {
    const res = await request(app).post(`/api/${plural}${query}`).send({ data });
    if (res.status !== 201) throw new Error(`POST ${plural}: ${res.status} ${JSON.stringify(res.body)}`);
    return (res.body as { data: Json }).data.documentId as string;
  };
  const items: string[] = [];
  const itemCount = 8 + int(r, 20);
  for (let i = 0; i < itemCount; i++) {
    // Some items are drafts only (no published row): the published scope leaves them out.
    const draft = itemsDraftAndPublish && r() < 0.2;
    items.push(await post('items', { rank: int(r, 5), tag: pick(r, TAGS) }, draft ? '?status=draft' : ''));
  }
  const shelfCount = 3 + int(r, 6);
  // oneToMany: each item belongs to at most one shelf.
  const owner = items.map(() => int(r, shelfCount + 1));
  for (let s = 0; s < shelfCount; s++) {
    const mine = manyToMany ? items.filter(() => r() < 0.5) : items.filter((_id, i) => owner[i] === s);
    const picks = items.filter(() => r() < 0.3);
    await post('shelves', { name: `shelf ${s}`, items: shuffled(r, mine), picks: shuffled(r, picks) });
  }
  // The engine is dropped after the file (helpers/test-engine).
  return { seed, engine, app, manyToMany, itemsDraftAndPublish };
}

async function get(w: World, url: string): Promise<Json[]> {
  const res = await request(w.app).get(url);
  if (res.status !== 200) throw new Error(`seed ${w.seed}: GET ${url} -> ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body as { data: Json[] }).data;
}

/** The stored rows a read sees (the published scope on a type with draft & publish), by documentId. */
async function visible(w: World, collection: string, draftAndPublish: boolean): Promise<Map<string, Json>> {
  const rows = await w.engine.find(collection, draftAndPublish ? { _status: 'published' } : {});
  return new Map(rows.map((row) => [row.documentId as string, row as Json]));
}

interface Ask {
  start?: number;
  limit?: number;
  sort?: 'asc' | 'desc';
  tag?: string;
  withCount?: boolean;
}

function randomAsk(r: Random): Ask {
  const ask: Ask = {};
  if (r() < 0.6) ask.start = int(r, 4);
  if (r() < 0.85) ask.limit = int(r, 5);
  if (r() < 0.4) ask.sort = pick(r, ['asc', 'desc'] as const);
  if (r() < 0.3) ask.tag = pick(r, TAGS);
  if (r() < 0.5) ask.withCount = true;
  return ask;
}

/** The query keys of `ask` under `prefix` (`populate[items]`). */
function askQuery(prefix: string, ask: Ask, field = 'rank'): string {
  const parts = [`${prefix}[fields][0]=${field}`];
  if (ask.start !== undefined) parts.push(`${prefix}[start]=${ask.start}`);
  if (ask.limit !== undefined) parts.push(`${prefix}[limit]=${ask.limit}`);
  if (ask.sort) parts.push(`${prefix}[sort][0]=rank:${ask.sort}`);
  if (ask.tag) parts.push(`${prefix}[filters][tag][$eq]=${ask.tag}`);
  if (ask.withCount) parts.push(`${prefix}[withCount]=true`);
  return parts.join('&');
}

/** The reference: `related` (in relation order) filtered, sorted (rank, then id), then sliced by start/limit. */
function reference(related: readonly Json[], ask: Ask): { page: string[]; total: number } {
  let rows = related.filter((row) => ask.tag === undefined || row.tag === ask.tag);
  if (ask.sort) {
    const sign = ask.sort === 'asc' ? 1 : -1;
    rows = [...rows].sort((a, b) => sign * ((a.rank as number) - (b.rank as number)) || (a.id as number) - (b.id as number));
  }
  const start = ask.start ?? 0;
  const end = ask.limit === undefined ? undefined : start + ask.limit;
  return { page: rows.slice(start, end).map((row) => row.documentId as string), total: rows.length };
}

const docIds = (value: unknown): string[] => (value as Json[]).map((row) => row.documentId as string);

describe.each(SEEDS)('populate pagination against the stored rows, seed %i', (seed) => {
  let w: World;
  beforeAll(async () => {
    w = await createWorld(seed);
  });

  it('owning side (items, picks): each shelf gets its own page of its stored relation order, and its total', async () => {
    const r = prng(seed * 7 + 1);
    const shelves = await visible(w, 'shelves', false);
    const items = await visible(w, 'items', w.itemsDraftAndPublish);
    for (let round = 0; round < 6; round++) {
      const rel = pick(r, ['items', 'picks'] as const);
      const ask = randomAsk(r);
      const url = `/api/shelves?fields[0]=name&${askQuery(`populate[${rel}]`, ask)}`;
      const data = await get(w, url);
      expect(data).toHaveLength(shelves.size);
      for (const shelf of data) {
        const stored = shelves.get(shelf.documentId as string)!;
        const related = ((stored[rel] as string[] | undefined) ?? []).map((id) => items.get(id)).filter((row): row is Json => row !== undefined);
        const expected = reference(related, ask);
        expect({ seed, url, shelf: shelf.name, page: docIds(shelf[rel]) }).toEqual({ seed, url, shelf: shelf.name, page: expected.page });
        if (ask.withCount) expect({ seed, url, meta: shelf.meta }).toEqual({ seed, url, meta: { [rel]: { count: expected.total } } });
        else expect(shelf.meta).toBeUndefined();
      }
    }
  });

  it('mappedBy side and a nested level: each parent at each level gets its own page', async () => {
    const r = prng(seed * 7 + 2);
    const shelves = await visible(w, 'shelves', false);
    const items = await visible(w, 'items', w.itemsDraftAndPublish);
    if (!w.manyToMany) {
      // The inverse of a oneToMany is to-one: a limit there is a 400 (populate-page.test.ts covers the message).
      const res = await request(w.app).get('/api/items?populate[shelf][limit]=1');
      expect(res.status).toBe(400);
      return;
    }
    for (let round = 0; round < 5; round++) {
      const ask = randomAsk(r);
      const inner = randomAsk(r);
      // Without a sort, the inverse side's order is the one the populate gives: the same read without a page.
      const full = await get(w, `/api/shelves?fields[0]=name&populate[items][fields][0]=rank&populate[items][populate][shelves][fields][0]=name`);
      const url = `/api/shelves?fields[0]=name&${askQuery('populate[items]', ask)}&${askQuery('populate[items][populate][shelves]', { ...inner, sort: undefined, tag: undefined }, 'name')}`;
      const data = await get(w, url);
      for (const shelf of data) {
        const stored = shelves.get(shelf.documentId as string)!;
        const related = ((stored.items as string[] | undefined) ?? []).map((id) => items.get(id)).filter((row): row is Json => row !== undefined);
        const expected = reference(related, ask);
        expect({ seed, url, page: docIds(shelf.items) }).toEqual({ seed, url, page: expected.page });
        for (const item of shelf.items as Json[]) {
          // The shelves holding this item, in the order of the unpaged read; their set from the stored rows.
          const holders = [...shelves.values()].filter((s) => ((s.items as string[] | undefined) ?? []).includes(item.documentId as string));
          const order = (full.flatMap((s) => (s.items as Json[])).find((i) => i.documentId === item.documentId)!.shelves as Json[]).map((s) => s.documentId as string);
          expect([...order].sort()).toEqual(holders.map((s) => s.documentId as string).sort());
          const start = inner.start ?? 0;
          const page = order.slice(start, inner.limit === undefined ? undefined : start + inner.limit);
          expect({ seed, url, item: item.documentId, page: docIds(item.shelves) }).toEqual({ seed, url, item: item.documentId, page });
          if (inner.withCount) expect(item.meta).toEqual({ shelves: { count: holders.length } });
        }
      }
    }
  });

  it('the inverse side from the items: each item gets its own page of shelves', async () => {
    if (!w.manyToMany) return;
    const r = prng(seed * 7 + 3);
    const shelves = await visible(w, 'shelves', false);
    for (let round = 0; round < 4; round++) {
      const ask: Ask = { ...randomAsk(r), tag: undefined, sort: undefined };
      const prefix = 'populate[shelves]';
      const parts = [`${prefix}[fields][0]=name`, `${prefix}[sort][0]=name:desc`];
      if (ask.start !== undefined) parts.push(`${prefix}[start]=${ask.start}`);
      if (ask.limit !== undefined) parts.push(`${prefix}[limit]=${ask.limit}`);
      if (ask.withCount) parts.push(`${prefix}[withCount]=true`);
      const url = `/api/items?fields[0]=rank&${parts.join('&')}`;
      for (const item of await get(w, url)) {
        const holders = [...shelves.values()]
          .filter((s) => ((s.items as string[] | undefined) ?? []).includes(item.documentId as string))
          .sort((a, b) => (b.name as string).localeCompare(a.name as string) || (a.id as number) - (b.id as number));
        const start = ask.start ?? 0;
        const page = holders.slice(start, ask.limit === undefined ? undefined : start + ask.limit).map((s) => s.documentId as string);
        expect({ seed, url, page: docIds(item.shelves) }).toEqual({ seed, url, page });
        if (ask.withCount) expect(item.meta).toEqual({ shelves: { count: holders.length } });
      }
    }
  });
});
