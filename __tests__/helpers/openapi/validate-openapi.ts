import { execFileSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..', '..');

// @seriousme/openapi-schema-validator is ESM only and Jest runs CommonJS: it runs in a child Node process.
const SCRIPT = `
import { Validator } from '@seriousme/openapi-schema-validator';
let text = '';
for await (const chunk of process.stdin) text += chunk;
const validator = new Validator();
const result = await validator.validate(JSON.parse(text));
process.stdout.write(JSON.stringify({ valid: result.valid, version: validator.version, errors: result.errors ?? [] }));
`;

/** What the validator says of a document. */
export interface OpenApiVerdict {
  valid: boolean;
  version: string;
  errors: unknown[];
}

/**
 * Validates an OpenAPI document against the OpenAPI specification's own JSON Schema with
 * @seriousme/openapi-schema-validator (in a child process, see above).
 * @example expect(validateOpenApi(router.openapi()).valid).toBe(true)
 */
export function validateOpenApi(document: unknown): OpenApiVerdict {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', SCRIPT], { cwd: ROOT, input: JSON.stringify(document), encoding: 'utf8' });
  return JSON.parse(out) as OpenApiVerdict;
}
