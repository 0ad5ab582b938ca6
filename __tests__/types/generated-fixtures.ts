import fs from 'node:fs';
import path from 'node:path';
import { generateTypes, type GenerateTypesOptions } from '../../lib';
import { readComponentSchemas, readContentTypeSchemas } from '../../lib/typegen/read-schemas';
import { everyTypeSchemas } from '../unit/schema/every-type';
import { memoType, userExtension } from './users-model';

/** The repository's copy of the blog model (of ../shared/fixtures/blog: conformance/copies.test.ts compares them). */
const BLOG_MODEL = path.join(__dirname, '..', '..', 'examples', 'blog', 'model');

/**
 * The committed generated declarations (generated/*.d.ts) and what generates them: the blog model (read from
 * examples/blog/model like the CLI does), the every-type test model and a model with users (users-model.ts). They augment this repository's
 * lib/ (a relative module name) so that `npm run typecheck` checks usage.ts against them.
 * `UPDATE_GENERATED_TYPES=1 npx jest __tests__/types` rewrites them after a deliberate generator change.
 */
export const GENERATED: readonly { file: string; options: () => GenerateTypesOptions }[] = [
  {
    file: path.join(__dirname, 'generated', 'blog.d.ts'),
    options: () => ({
      contentTypes: readContentTypeSchemas([path.join(BLOG_MODEL, 'content-types')]),
      components: readComponentSchemas(path.join(BLOG_MODEL, 'components')),
      moduleName: '../../../lib',
    }),
  },
  { file: path.join(__dirname, 'generated', 'every-type.d.ts'), options: () => ({ ...everyTypeSchemas(), moduleName: '../../../lib' }) },
  {
    file: path.join(__dirname, 'generated', 'users.d.ts'),
    options: () => ({ contentTypes: [memoType], users: { userSchema: userExtension }, moduleName: '../../../lib' }),
  },
];

/** Writes every generated file (the UPDATE_GENERATED_TYPES path). */
export function writeGenerated(): void {
  for (const g of GENERATED) fs.writeFileSync(g.file, generateTypes(g.options()));
}
