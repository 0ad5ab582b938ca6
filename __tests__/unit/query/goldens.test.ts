import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApplicationError } from '../../../lib/errors';
import { parseQuery } from '../../../lib/query';
import { loadBlogRegistry } from '../../helpers/blog-registry';

/**
 * Every recorded GET of the conformance corpus, parsed as the router would: a 200 must parse, a 400 must throw
 * the recorded error (name, message, details), a 500 (Strapi's crash on malformed filters) must be a 400 here.
 */
const registry = loadBlogRegistry();
const PUBLIC = new Set(['api::article.article', 'api::category.category', 'api::global.global', 'api::about.about']);
const goldenDir = join(__dirname, '..', '..', 'conformance', 'golden');

interface Golden {
  name: string;
  request: { method: string; path: string; auth: string };
  status: number;
  body: { error?: { name: string; message: string; details: Record<string, unknown> } } | null;
}

const cases: Golden[] = readdirSync(goldenDir)
  .filter((f) => !f.startsWith('_') && f.endsWith('.json'))
  .map((f) => JSON.parse(readFileSync(join(goldenDir, f), 'utf8')) as Golden)
  .filter((g) => g.request.method === 'GET' && !g.request.path.startsWith('/api/upload') && [200, 400, 500].includes(g.status));

function run(g: Golden): unknown {
  const [pathname = '', rawQuery = ''] = g.request.path.split('?');
  const [, , apiId, documentId] = pathname.split('/');
  const contentType = registry.byRoute(apiId ?? '');
  if (!contentType) return 'no-route';
  const canFind = (uid: string): boolean => g.request.auth !== 'none' || PUBLIC.has(uid);
  const action = documentId || contentType.kind === 'singleType' ? 'findOne' : 'find';
  try {
    parseQuery({ registry, contentType, rawQuery, context: { canFind }, rest: { defaultLimit: 25, maxLimit: 100 }, action });
    return 'ok';
  } catch (error) {
    if (error instanceof ApplicationError) return { status: error.status, name: error.name, message: error.message, details: error.details };
    throw error;
  }
}

describe('parseQuery against the recorded Strapi answers', () => {
  it('finds the GET cases', () => {
    expect(cases.length).toBeGreaterThan(100);
  });

  it.each(cases.filter((g) => g.status === 200).map((g) => [g.name, g] as const))('%s parses', (_name, g) => {
    expect(run(g)).toBe('ok');
  });

  it.each(cases.filter((g) => g.status === 400).map((g) => [g.name, g] as const))('%s throws the recorded error', (_name, g) => {
    const e = g.body!.error!;
    expect(run(g)).toEqual({ status: 400, name: e.name, message: e.message, details: e.details });
  });

  it.each(cases.filter((g) => g.status === 500).map((g) => [g.name, g] as const))('%s is a 400 ValidationError here', (_name, g) => {
    expect(run(g)).toMatchObject({ status: 400, name: 'ValidationError' });
  });
});
