import { randomBytes } from 'node:crypto';
import { loadBlogModel } from './model';

/** What `createEditor` made: the new user's name, e-mail and generated password. */
export interface CreatedEditor {
  username: string;
  email: string;
  password: string;
}

/**
 * Creates a user of the example's "Editor" role over the running example's API (`POST /api/users` with the
 * example's full-access token), with a generated password: nothing secret is written anywhere, the password is
 * answered once. Throws with the API's message (e.g. "Username already taken").
 *
 * @example
 * const { password } = await createEditor('http://localhost:1337/api', token, { username: 'editor', email: 'editor@example.com' });
 */
export async function createEditor(apiUrl: string, token: string, who: { username: string; email: string }): Promise<CreatedEditor> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const call = async (path: string, init: RequestInit = {}): Promise<Record<string, unknown>> => {
    const res = await fetch(`${apiUrl}${path}`, { ...init, headers });
    const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${(body.error as { message?: string } | undefined)?.message ?? JSON.stringify(body)}`);
    return body;
  };
  const { roles } = (await call('/users-permissions/roles')) as { roles: { id: number; type: string }[] };
  const editor = roles.find((role) => role.type === 'editor');
  if (!editor) throw new Error('the API has no "editor" role: is it the example app (npm start)?');
  const password = randomBytes(15).toString('base64url');
  await call('/users', { method: 'POST', body: JSON.stringify({ ...who, password, role: editor.id, confirmed: true }) });
  return { ...who, password };
}

/** `--username <name> --email <address>` (defaults `editor`, `<username>@example.com`). */
function parseArgs(argv: readonly string[]): { username: string; email: string } {
  const values = new Map<string, string>();
  for (let i = 0; i < argv.length; i += 2) {
    const flag = argv[i]!;
    const value = argv[i + 1];
    if ((flag !== '--username' && flag !== '--email') || value === undefined) throw new Error(`usage: npm run admin:editor -- [--username <name>] [--email <address>]`);
    values.set(flag.slice(2), value);
  }
  const username = values.get('username') ?? 'editor';
  return { username, email: values.get('email') ?? `${username}@example.com` };
}

/**
 * `npm run admin:editor -- --username ada --email ada@example.com`, while `npm start` runs (`API_URL`, default
 * http://localhost:<PORT or 1337>/api): prints the new editor's login once.
 */
async function main(): Promise<void> {
  const who = parseArgs(process.argv.slice(2));
  const apiUrl = process.env.API_URL ?? `http://localhost:${process.env.PORT ?? '1337'}/api`;
  const token = loadBlogModel().permissions.apiTokens.find((t) => t.type === 'full-access')!.accessKey;
  const editor = await createEditor(apiUrl, token, who);
  console.log(`Editor created: ${editor.username} <${editor.email}>\npassword (shown once, not stored anywhere): ${editor.password}\nlog in at ${apiUrl.replace(/\/api$/, '')}/admin/`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(`admin:editor: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
