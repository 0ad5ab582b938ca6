import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

type Doc = { paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, unknown> }> }>>; servers?: { url: string }[] };

/** The verdict on one answer. */
export type ResponseVerdict =
  | { kind: 'no-operation' }
  | { kind: 'undocumented-status'; operation: string }
  | { kind: 'no-body'; operation: string }
  | { kind: 'valid'; operation: string }
  | { kind: 'invalid'; operation: string; errors: string[] };

const escape = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Checks real answers against an OpenAPI 3.1 document: finds the operation of a method and path (the path
 * templates of `paths`, under the first server URL), then validates the body against the JSON schema of the
 * answered status with ajv's 2020-12 dialect (OpenAPI 3.1's), formats included.
 *
 * @example
 * const check = responseValidator(router.openapi());
 * check('GET', '/api/articles?populate=*', 200, body); // { kind: 'valid', operation: 'get /articles' }
 */
export function responseValidator(doc: Doc): (method: string, url: string, status: number, body: unknown) => ResponseVerdict {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ ...doc, $id: 'openapi.json' });
  const prefix = doc.servers?.[0]?.url.replace(/\/$/, '') ?? '';
  const templates = Object.keys(doc.paths).map((t) => ({ t, re: new RegExp(`^${t.replace(/\{[^}]+\}/g, '[^/]+')}$`) }));
  const compiled = new Map<string, ValidateFunction>();
  return (method, url, status, body) => {
    const pathname = decodeURI(url.split('?')[0]!).slice(prefix.length) || '/';
    const template = templates.find((x) => x.re.test(pathname))?.t;
    const m = method.toLowerCase();
    const op = template === undefined ? undefined : doc.paths[template]![m];
    if (!op || typeof op !== 'object') return { kind: 'no-operation' };
    const operation = `${m} ${template}`;
    const response = op.responses?.[String(status)];
    if (!response) return { kind: 'undocumented-status', operation };
    if (!response.content) return body === null || body === '' ? { kind: 'no-body', operation } : { kind: 'invalid', operation, errors: ['a body where the document says none'] };
    const pointer = `openapi.json#/paths/${escape(template!)}/${m}/responses/${status}/content/application~1json/schema`;
    let validate = compiled.get(pointer);
    if (!validate) compiled.set(pointer, (validate = ajv.compile({ $ref: pointer })));
    if (validate(body)) return { kind: 'valid', operation };
    return { kind: 'invalid', operation, errors: (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath} ${e.message ?? ''} ${JSON.stringify(e.params)}`) };
  };
}

/**
 * Checks request bodies against the document's `requestBody` (application/json) of the operation: the
 * verdict's `operation` is undefined when the route has no JSON request body.
 * @example requestValidator(doc)('POST', '/api/articles', { data: { title: 'x' } })
 */
export function requestValidator(doc: Doc): (method: string, url: string, body: unknown) => { operation?: string; errors: string[] } {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ ...doc, $id: 'openapi.json' });
  const prefix = doc.servers?.[0]?.url.replace(/\/$/, '') ?? '';
  const templates = Object.keys(doc.paths).map((t) => ({ t, re: new RegExp(`^${t.replace(/\{[^}]+\}/g, '[^/]+')}$`) }));
  return (method, url, body) => {
    const pathname = decodeURI(url.split('?')[0]!).slice(prefix.length) || '/';
    const template = templates.find((x) => x.re.test(pathname))?.t;
    const m = method.toLowerCase();
    const op = template === undefined ? undefined : (doc.paths[template]![m] as { requestBody?: { content?: Record<string, unknown> } } | undefined);
    if (!op?.requestBody?.content?.['application/json']) return { errors: [] };
    const validate = ajv.compile({ $ref: `openapi.json#/paths/${escape(template!)}/${m}/requestBody/content/application~1json/schema` });
    return { operation: `${m} ${template}`, errors: validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''} ${JSON.stringify(e.params)}`) };
  };
}
