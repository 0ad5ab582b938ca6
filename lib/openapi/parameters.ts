import type { ContentType, Registry } from '../schema';
import type { JsonSchema } from './schemas';

/** An OpenAPI 3.1 Parameter Object. */
export type Parameter = Record<string, unknown>;

// Strapi's query parameters are qs-encoded (`filters[title][$eq]=x`, `populate[0]=author`): OpenAPI says
// nested objects with `style: deepObject` (one level in the spec; qs goes deeper, said in each description).
const deep = (name: string, description: string, schema: JsonSchema): Parameter => ({
  name, in: 'query', required: false, style: 'deepObject', explode: true, description, schema,
});

const populate = deep('populate', "Relations, media, components and dynamic zones to include: `*`, a list (`populate[0]=author`) or a qs object (`populate[author][fields][0]=name`, `populate[blocks][on][shared.quote]=true`). Nested as deep as `rest.maxDepth`. A to-many relation, media `multiple` or `localizations` takes a page per parent entry: `populate[articles][start]=0&populate[articles][limit]=6` (non-negative integers, `limit` at most `rest.maxLimit`), and `populate[articles][withCount]=true` adds the entry's total in `meta.articles.count`; `populate[articles][count]=true` answers `{ count }` instead of the rows.", {
  anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }, { type: 'object' }],
});
const fields = deep('fields', 'Scalar attributes to return (`fields[0]=title&fields[1]=slug`); `id` and `documentId` always come.', {
  anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
});
const filters = deep('filters', 'Strapi filters as a qs object: `filters[title][$containsi]=hello`, `filters[$or][0][views][$gt]=10`, through relations and components (`filters[author][name][$eq]=Ann`). Operators: $eq $eqi $ne $nei $lt $lte $gt $gte $in $notIn $contains $notContains $containsi $notContainsi $startsWith $startsWithi $endsWith $endsWithi $null $notNull $between $and $or $not.', { type: 'object' });
const sort = deep('sort', 'One or more `field[:asc|desc]` (`sort=title:desc`, `sort[0]=title&sort[1]=createdAt:desc`), through relations with dots (`author.name`).', {
  anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }, { type: 'object' }],
});

function pagination(maxLimit: number): Parameter {
  return deep('pagination', `Page-based (\`pagination[page]\`, \`pagination[pageSize]\`) or offset-based (\`pagination[start]\`, \`pagination[limit]\`); sizes above ${maxLimit} are capped. \`pagination[withCount]=false\` leaves out the total. Cursor-based (not in Strapi): \`pagination[cursor]=\` (empty: the first page) with \`pagination[limit]\`, then \`pagination[cursor]=<meta.pagination.nextCursor>\` until it is null; the total only with \`pagination[withCount]=true\`; not with page, pageSize or start, nor with a sort through a relation or a repeatable component.`, {
    type: 'object',
    properties: {
      page: { type: 'integer', minimum: 1 },
      pageSize: { type: 'integer', minimum: 1 },
      start: { type: 'integer', minimum: 0 },
      limit: { type: 'integer' },
      withCount: { type: 'boolean' },
      cursor: { type: 'string', maxLength: 4096 },
    },
  });
}

function locale(registry: Registry, many: boolean): Parameter {
  const codes = [...registry.i18n.locales, ...(many ? ['*'] : [])];
  return {
    name: 'locale', in: 'query', required: false,
    description: `The locale read or written (localized types; default \`${registry.i18n.defaultLocale}\`)${many ? '; `*` lists every locale' : ''}.`,
    schema: { type: 'string', enum: codes },
  };
}

const status: Parameter = {
  name: 'status', in: 'query', required: false,
  description:
    'The published version (default) or the draft (types with draft & publish). Reading drafts takes the `<uid>.findDrafts` ' +
    "action (read-only and full-access API tokens have it; 403 without it), unless the router has `auth.drafts: 'strapi'`.",
  schema: { type: 'string', enum: ['published', 'draft'] },
};

/** The query parameters of one route of a content type. */
export function routeParameters(registry: Registry, ct: ContentType, route: 'find' | 'findOne' | 'write' | 'delete', maxLimit: number): Parameter[] {
  const out: Parameter[] = [];
  if (route !== 'delete') out.push(populate, fields);
  if (route === 'find') out.push(filters, sort, pagination(maxLimit));
  if (ct.localized) out.push(locale(registry, route === 'find'));
  if (ct.draftAndPublish && route !== 'delete') out.push(status);
  return out;
}

/** The query of `GET /upload/files`: a content list's on `plugin::upload.file` (no populate: files have no relation served). */
export function filesParameters(maxLimit: number): Parameter[] {
  return [fields, filters, sort, pagination(maxLimit)];
}
