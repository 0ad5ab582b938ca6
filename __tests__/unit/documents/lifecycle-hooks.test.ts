import request from 'supertest';
import { ValidationError, type LifecycleEvent } from '../../../lib';
import { createRelationsApp, UID } from '../../fixtures/relations-model';

type Body = Record<string, unknown>;

async function appWith(hooks: Record<string, (e: LifecycleEvent) => unknown>) {
  const calls: string[] = [];
  const wrapped = Object.fromEntries(Object.entries(hooks).map(([name, fn]) => [name, (e: LifecycleEvent) => {
    calls.push(`${name}:${e.documentId ?? '-'}`);
    return fn(e);
  }]));
  const { app, router } = await createRelationsApp({ lifecycles: { [UID.post]: wrapped } });
  return { app, router, calls };
}

describe('lifecycle hooks', () => {
  it('before hooks can change the data of create and update', async () => {
    const { app } = await appWith({
      beforeCreate: (e) => ({ ...e.data, slug: String(e.data?.title).toLowerCase() }),
      beforeUpdate: (e) => ({ ...e.data, views: 42 }),
    });
    const created = await request(app).post('/api/posts').send({ data: { title: 'Hello' } });
    expect(created.status).toBe(201);
    expect(created.body.data.slug).toBe('hello');
    const updated = await request(app).put(`/api/posts/${created.body.data.documentId}`).send({ data: { title: 'Again' } });
    expect(updated.body.data).toMatchObject({ title: 'Again', views: 42, slug: 'hello' });
  });

  it('a ValidationError thrown by a hook reaches the client as a 400 and nothing is written', async () => {
    const reject = (e: LifecycleEvent): void => {
      if (String(e.data?.title ?? '').includes('spam')) throw new ValidationError('No spam', { field: 'title' });
    };
    const { app } = await appWith({ beforeCreate: reject, beforeUpdate: reject });
    const res = await request(app).post('/api/posts').send({ data: { title: 'spam!' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ status: 400, name: 'ValidationError', message: 'No spam', details: { field: 'title' } });
    expect((await request(app).get('/api/posts?status=draft')).body.data).toEqual([]);
    const ok = await request(app).post('/api/posts').send({ data: { title: 'fine' } });
    const put = await request(app).put(`/api/posts/${ok.body.data.documentId}`).send({ data: { title: 'spam' } });
    expect(put.status).toBe(400);
    expect((await request(app).get(`/api/posts/${ok.body.data.documentId}?status=draft`)).body.data.title).toBe('fine');
  });

  it('rejecting a publish keeps the previous published version', async () => {
    let block = false;
    const { app } = await appWith({ beforePublish: () => { if (block) throw new ValidationError('Publishing is frozen'); } });
    const doc = (await request(app).post('/api/posts').send({ data: { title: 'v1' } })).body.data.documentId as string;
    block = true;
    const res = await request(app).put(`/api/posts/${doc}`).send({ data: { title: 'v2' } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('Publishing is frozen');
    expect((await request(app).get(`/api/posts/${doc}`)).body.data.title).toBe('v1');
    expect((await request(app).get(`/api/posts/${doc}?status=draft`)).body.data.title).toBe('v1');
  });

  it('a rejected delete deletes nothing', async () => {
    const { app } = await appWith({ beforeDelete: () => { throw new ValidationError('Keep it'); } });
    const doc = (await request(app).post('/api/posts').send({ data: { title: 'v1' } })).body.data.documentId as string;
    const res = await request(app).delete(`/api/posts/${doc}`);
    expect(res.status).toBe(400);
    expect((await request(app).get(`/api/posts/${doc}`)).status).toBe(200);
  });

  it('every hook runs, in order, with the documentId', async () => {
    const events: Body = {};
    const record = (name: string) => (e: LifecycleEvent) => { events[name] = e; };
    const names = ['beforeCreate', 'afterCreate', 'beforeUpdate', 'afterUpdate', 'beforePublish', 'afterPublish', 'beforeDelete', 'afterDelete'];
    const { app, router, calls } = await appWith(Object.fromEntries(names.map((n) => [n, record(n)])));
    const doc = (await request(app).post('/api/posts?status=draft').send({ data: { title: 'a' } })).body.data.documentId as string;
    await request(app).put(`/api/posts/${doc}?status=draft`).send({ data: { title: 'b' } });
    await router.documents(UID.post).publish(doc);
    await request(app).delete(`/api/posts/${doc}`);
    expect(calls).toEqual([
      'beforeCreate:-', `afterCreate:${doc}`, `beforeUpdate:${doc}`, `afterUpdate:${doc}`,
      `beforePublish:${doc}`, `afterPublish:${doc}`, `beforeDelete:${doc}`, `afterDelete:${doc}`,
    ]);
    expect(events.afterCreate).toMatchObject({ uid: UID.post, documentId: doc, locale: 'en', data: { title: 'a' } });
  });
});
