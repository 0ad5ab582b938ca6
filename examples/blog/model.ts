import fs from 'node:fs';
import path from 'node:path';
import type { ComponentSchema, ContentTypeSchema } from '../../lib';

const root = path.join(__dirname, 'model');
const readJson = (file: string): unknown => JSON.parse(fs.readFileSync(file, 'utf8'));

/** The blog model (a copy of ../shared/fixtures/blog): content types, components, permissions. */
export function loadBlogModel() {
  const contentTypes = fs
    .readdirSync(path.join(root, 'content-types'))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => readJson(path.join(root, 'content-types', f)) as ContentTypeSchema);
  const components: Record<string, ComponentSchema> = {};
  for (const category of fs.readdirSync(path.join(root, 'components'))) {
    for (const f of fs.readdirSync(path.join(root, 'components', category)).filter((x) => x.endsWith('.json'))) {
      components[`${category}.${f.replace(/\.json$/, '')}`] = readJson(path.join(root, 'components', category, f)) as ComponentSchema;
    }
  }
  const permissions = readJson(path.join(root, 'permissions.json')) as {
    locales: { default: string; all: string[] };
    public: { actions: string[] };
    authenticated: { actions: string[] };
    usersPermissions: { jwtSecret: string; jwt: { expiresIn: string } };
    apiTokens: { name: string; type: 'read-only' | 'full-access'; accessKey: string }[];
  };
  return { contentTypes, components, permissions };
}
