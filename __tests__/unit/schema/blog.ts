import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRegistry } from '../../../lib/schema';
import type { Registry } from '../../../lib/schema';

const FIXTURE = join(__dirname, '..', '..', '..', '..', 'shared', 'fixtures', 'blog');
const readJson = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));

/** The blog model of the conformance corpus (../shared/fixtures/blog), with locales en (default) and fr. */
export function blogRegistry(): Registry {
  const typesDir = join(FIXTURE, 'content-types');
  const contentTypes = readdirSync(typesDir).sort().map((f) => readJson(join(typesDir, f)));
  const components: Record<string, unknown> = {};
  const componentsDir = join(FIXTURE, 'components');
  for (const category of readdirSync(componentsDir).sort()) {
    for (const f of readdirSync(join(componentsDir, category)).sort()) {
      components[`${category}.${f.replace(/\.json$/, '')}`] = readJson(join(componentsDir, category, f));
    }
  }
  return createRegistry({ contentTypes, components, i18n: { locales: ['en', 'fr'], defaultLocale: 'en' } });
}
