import path from 'node:path';
import request from 'supertest';
import { memoryEngine } from '../../lib';
import { loadBlogModel } from '../../examples/blog/model';
import { exportStrapiExport } from '../../lib/transfer/export-strapi-export';
import { importStrapiExport } from '../../lib/transfer/import-strapi-export';
import { TransferError } from '../../lib/transfer/transfer-error';
import { blogTarget, LOCALES, readExport, tempDir, type BlogTarget } from './transfer-helpers';
import { PERMISSION, ROLE, USER, usersExport, usersTarget } from './users-export';

async function importError(target: BlogTarget, file: string): Promise<TransferError> {
  const error: unknown = await importStrapiExport(target.router, file, { uploads: { directory: target.uploads } }).then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(TransferError);
  return error as TransferError;
}

/** The store as the router left it at start-up: its two seeded roles, as they were (same `_id`s and documentIds), and nothing else. */
async function expectAsSeeded(target: BlogTarget, seeded: Record<string, unknown>[]): Promise<void> {
  expect(await target.engine.find('up_roles', {}, { sort: { id: 1 } })).toEqual(seeded);
  for (const collection of ['up_users', 'notes', '_strapi_transfer']) expect({ collection, n: await target.engine.count(collection, {}) }).toEqual({ collection, n: 0 });
}

describe('users, roles and permissions that do not fit: the same two passes and rollback as the rest', () => {
  it('a grant to a role that is not in the export, a permission without an action: nothing is written', async () => {
    const target = await usersTarget();
    const seeded = await target.engine.find('up_roles', {}, { sort: { id: 1 } });
    const file = await usersExport({
      edit: (stage, line) => (stage === 'entities' && line.type === PERMISSION && line.id === 2 ? { ...line, data: { ...(line.data as object), action: null } } : line),
      extra: [
        { stage: 'entities', value: { type: PERMISSION, id: 8, data: { documentId: 'p8', action: 'api::note.note.delete' } } },
        { stage: 'links', value: { kind: 'relation.basic', relation: 'manyToOne', left: { type: PERMISSION, field: 'role', ref: 8 }, right: { type: ROLE, field: 'permissions', ref: 9, pos: 1 } } },
      ],
    });
    const error = await importError(target, file);
    expect(error.problems).toEqual([
      `${PERMISSION} id 2, field action: expected an action string, got null`,
      `link ${PERMISSION} id 8 field role: links to ${ROLE} id 9, which is not in the export`,
    ]);
    await expectAsSeeded(target, seeded);
  });

  it('two users with one e-mail (unique here): the write fails, and the seeded roles it replaced come back', async () => {
    const target = await usersTarget();
    const seeded = await target.engine.find('up_roles', {}, { sort: { id: 1 } });
    const file = await usersExport({ edit: (stage, line) => (stage === 'entities' && line.type === USER && line.id === 2 ? { ...line, data: { ...(line.data as object), email: 'alice@example.com' } } : line) });
    const error = await importError(target, file);
    expect(error.message).toMatch(/^plugin::users-permissions.user: two rows share a value of the unique attribute email .*nothing was imported$/);
    await expectAsSeeded(target, seeded);
    // And the router still serves its own roles: the seeded Public role lets anyone log in (a 400 for unknown users, not a 403).
    const res = await request(target.app).post('/api/auth/local').send({ identifier: 'alice', password: 'x' });
    expect(res.status).toBe(400);
  });
});

describe('without auth.users (today\'s behaviour): Strapi\'s users, roles and permissions are kept aside', () => {
  const model = loadBlogModel();
  const modelTarget = (file: string, users: boolean) => ({ engine: memoryEngine({ file }), contentTypes: model.contentTypes, components: model.components, i18n: { locales: LOCALES, defaultLocale: 'en' }, users });

  it('imports none of them, and writes them back unchanged on export', async () => {
    const target = await blogTarget();
    const file = await usersExport({ notes: false });
    const result = await importStrapiExport(target.router, file, { uploads: { directory: target.uploads } });
    expect(result.rows).toEqual({});
    expect(result.kept).toEqual({ [`entities of ${PERMISSION}`]: 7, [`entities of ${ROLE}`]: 3, [`entities of ${USER}`]: 2, [`links of ${PERMISSION}`]: 7, [`links of ${USER}`]: 2 });
    const out = path.join(tempDir('kept'), 'export.tar');
    await exportStrapiExport(target.router, out, { gzip: false, uploads: { directory: target.uploads } });
    const [given, ours] = [await readExport(file), await readExport(out)];
    const theirs = <T extends { type?: string; left?: Record<string, unknown> }>(lines: T[]) =>
      lines.filter((l) => String(l.type ?? l.left?.type).startsWith('plugin::users-permissions.') && l.left?.field !== 'localizations');
    expect(theirs(ours.entities)).toEqual(theirs(given.entities));
    expect(theirs(ours.links)).toEqual(theirs(given.links));
  });

  it('an export with auth.users of a store that kept them aside is refused, saying how to move them', async () => {
    const dir = tempDir('kept-then-users');
    const first = modelTarget(path.join(dir, 'content.db'), false);
    await importStrapiExport(first, await usersExport({ notes: false }), { uploads: { directory: dir } });
    await first.engine.close();
    const second = modelTarget(path.join(dir, 'content.db'), true);
    try {
      const out = path.join(dir, 'out.tar');
      await expect(exportStrapiExport(second, out, { uploads: { directory: dir } })).rejects.toThrow(
        /the store holds 21 line\(s\) of Strapi's users, roles and permissions kept aside by an import made without auth.users.*export without auth.users to write those back, or import the original export again/,
      );
    } finally {
      await second.engine.close();
    }
  });
});
