import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApplicationError } from '../../../lib/errors';
import { createBodyValidator, readDataPayload } from '../../../lib/schema/validate-body';
import { blogRegistry } from './blog';

/**
 * Every recorded answer (repo copy of the conformance corpus) that the body validator alone decides: the
 * request body goes through readDataPayload + validate and the thrown error must be the golden one exactly.
 */
const CONFORMANCE = join(__dirname, '..', '..', 'conformance');
const cases = (JSON.parse(readFileSync(join(CONFORMANCE, 'corpus', 'cases.json'), 'utf8')) as {
  cases: { name: string; method: string; path: string; body?: unknown }[];
}).cases;
const golden = (name: string): { status: number; body: { error?: Record<string, unknown> } } =>
  JSON.parse(readFileSync(join(CONFORMANCE, 'golden', `${name}.json`), 'utf8'));

const captures = JSON.parse(readFileSync(join(CONFORMANCE, 'golden', '_captures.json'), 'utf8')) as Record<string, unknown>;
/** `{{name}}` placeholders of the corpus replaced by the values Strapi answered (file ids, documentIds). */
const resolve = (v: unknown): unknown => {
  if (typeof v === 'string') {
    const m = /^\{\{([^{}]+)\}\}$/.exec(v);
    return m && m[1]! in captures ? captures[m[1]!] : v;
  }
  if (Array.isArray(v)) return v.map(resolve);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolve(x)]));
  return v;
};

const registry = blogRegistry();
const UIDS: Record<string, string> = {
  articles: 'api::article.article',
  authors: 'api::author.author',
  categories: 'api::category.category',
};

function run(name: string): unknown {
  const c = cases.find((x) => x.name === name);
  if (!c) throw new Error(`no case ${name}`);
  const [, , route, doc] = c.path.split('?')[0]!.split('/');
  const uid = UIDS[route!];
  if (!uid) throw new Error(`no type for ${c.path}`);
  const validator = createBodyValidator(registry, registry.contentType(uid));
  const draft = /[?&]status=draft/.test(c.path);
  try {
    return validator.validate(readDataPayload(resolve(c.body)), { action: doc ? 'update' : 'create', draft });
  } catch (e) {
    if (!(e instanceof ApplicationError)) throw e;
    return { error: { status: e.status, name: e.name, message: e.message, details: e.details } };
  }
}

const REJECTED = [
  'error.bad-email',
  'error.component-required',
  'error.data-array',
  'error.data-string',
  'error.dz-missing-component',
  'error.dz-unknown-component',
  'error.max-length',
  'error.no-data',
  'error.put-no-data',
  'error.required-missing',
  'error.required-null',
  'error.uid-invalid',
  'error.wrong-enum',
  'error.wrong-type-boolean',
  'error.wrong-type-date',
  'error.wrong-type-integer',
  'error.wrong-type-string',
  'write.create.id-in-body',
  'write.create.timestamps-in-body',
  'write.create.unknown-attribute',
];

describe('body validation against the Strapi recordings', () => {
  it.each(REJECTED)('%s answers the recorded error', (name) => {
    const expected = golden(name);
    expect(expected.status).toBe(400);
    expect(JSON.parse(JSON.stringify(run(name)))).toEqual({ error: expected.body.error });
  });

  // Accepted by the validator; what is left (relations, uniqueness) is the documents service's business.
  const ACCEPTED = cases
    .filter((c) => /^(write\.(create|update|draft)\.|setup\.i18n\.body-locale|error\.(relation|media|unique|uid-dup))/.test(c.name))
    .filter((c) => c.body !== undefined && /^\/api\/(articles|authors|categories)/.test(c.path))
    .map((c) => c.name)
    .filter((name) => !REJECTED.includes(name));

  it.each(ACCEPTED)('%s passes the validator', (name) => {
    const out = run(name);
    expect(out).not.toHaveProperty('error');
    for (const key of ['id', 'documentId', 'locale', 'publishedAt', 'createdAt']) expect(out).not.toHaveProperty(key);
  });
});
