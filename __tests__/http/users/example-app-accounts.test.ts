import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import jwt from 'jsonwebtoken';
import request from 'supertest';
import { createBlogApp } from '../../../examples/blog/app';
import { loadBlogModel } from '../../../examples/blog/model';
import { testEngine } from '../../helpers/test-engine';

// Issue 28 (High 1, Medium 6, Also): the example app never signs logins with the model's committed secret, its
// Authenticated role cannot list every user's e-mail, and its console gets reset codes only in development.

const FIXTURE_SECRET = loadBlogModel().permissions.usersPermissions.jwtSecret;

/** Runs `fn` with environment variables set (undefined: unset), restored after. */
async function withEnv<T>(vars: Record<string, string | undefined>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const set = (values: Record<string, string | undefined>): void => {
    for (const [k, v] of Object.entries(values)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
  set(vars);
  try {
    return await fn();
  } finally {
    set(saved);
  }
}

const register = (app: Parameters<typeof request>[0], name: string) =>
  request(app).post('/api/auth/local/register').send({ username: name, email: `${name}@example.com`, password: `${name}-Pass-1` });

describe('examples/blog: accounts', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cr-example-accounts-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('without JWT_SECRET, signs with a secret generated on first start, kept in the data folder (0600) and reused', async () => {
    await withEnv({ JWT_SECRET: undefined }, async () => {
      const dataFile = path.join(dir, 'data', 'content.db');
      const first = await createBlogApp({ seed: false, dataFile, uploadsDir: path.join(dir, 'uploads') });
      const alice = await register(first.app, 'alice');
      expect(alice.status).toBe(200);
      // A JWT signed with the model's committed secret is refused.
      const forged = jwt.sign({ id: alice.body.user.id as number }, FIXTURE_SECRET, { expiresIn: '30d' });
      expect((await request(first.app).get('/api/users/me').set('authorization', `Bearer ${forged}`)).status).toBe(401);
      await first.close();

      const file = path.join(dir, 'data', 'jwt-secret');
      const secret = fs.readFileSync(file, 'utf8').trim();
      expect(Buffer.from(secret, 'base64')).toHaveLength(32);
      if (process.platform !== 'win32') expect(fs.statSync(file).mode & 0o777).toBe(0o600);

      // Restarted on the same data: the same secret, so alice's JWT still works.
      const second = await createBlogApp({ seed: false, dataFile, uploadsDir: path.join(dir, 'uploads') });
      try {
        const me = await request(second.app).get('/api/users/me').set('authorization', `Bearer ${alice.body.jwt as string}`);
        expect({ status: me.status, username: me.body.username }).toEqual({ status: 200, username: 'alice' });
        expect(fs.readFileSync(file, 'utf8').trim()).toBe(secret);
      } finally {
        await second.close();
      }
    });
    // JWT_SECRET, when set, is the secret: the kept one is not used.
    const given = 'an-example-secret-of-at-least-32-bytes!';
    await withEnv({ JWT_SECRET: given }, async () => {
      const third = await createBlogApp({ seed: false, engine: testEngine(), uploadsDir: path.join(dir, 'uploads'), jwtSecretFile: path.join(dir, 'data', 'jwt-secret') });
      try {
        const bob = await register(third.app, 'bob');
        expect(jwt.verify(bob.body.jwt as string, given)).toMatchObject({ id: bob.body.user.id });
      } finally {
        await third.close();
      }
    });
  });

  it("does not let the Authenticated role list every user's e-mail (user.find), but in Strapi compatibility mode", async () => {
    for (const strapiCompat of [false, true]) {
      const blog = await createBlogApp({ seed: false, engine: testEngine(), uploadsDir: dir, strapiCompat });
      try {
        const carol = await register(blog.app, 'carol');
        const list = await request(blog.app).get('/api/users').set('authorization', `Bearer ${carol.body.jwt as string}`);
        expect({ strapiCompat, status: list.status }).toEqual({ strapiCompat, status: strapiCompat ? 200 : 403 });
        expect((await request(blog.app).get('/api/users/me').set('authorization', `Bearer ${carol.body.jwt as string}`)).status).toBe(200);
      } finally {
        await blog.close();
      }
    }
  });

  it('prints e-mails with their reset codes only under NODE_ENV=development', async () => {
    for (const env of ['production', 'development']) {
      const lines: string[] = [];
      const spy = jest.spyOn(console, 'info').mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(' ')));
      try {
        await withEnv({ NODE_ENV: env, JWT_SECRET: undefined }, async () => {
          const blog = await createBlogApp({ seed: false, engine: testEngine(), uploadsDir: dir });
          try {
            await register(blog.app, `dave${env}`);
            expect((await request(blog.app).post('/api/auth/forgot-password').send({ email: `dave${env}@example.com` })).body).toEqual({ ok: true });
            for (let turn = 0; turn < 200 && !lines.some((l) => l.includes('Reset password')); turn++) await new Promise((r) => setTimeout(r, 5));
          } finally {
            await blog.close();
          }
        });
      } finally {
        spy.mockRestore();
      }
      const mail = lines.find((l) => l.includes('Reset password'));
      expect(mail).toBeDefined();
      expect({ env, code: /[0-9a-f]{128}/.test(mail!) }).toEqual({ env, code: env === 'development' });
    }
  });
});
