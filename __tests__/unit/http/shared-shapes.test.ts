import { setFlagsFromString } from 'node:v8';
import express, { type Request, type Response } from 'express';
import request from 'supertest';
import { sharedShapes } from '../../../lib/http/shared-shapes';

setFlagsFromString('--allow-natives-syntax');
const hasFastProperties = new Function('object', 'return %HasFastProperties(object)') as (object: object) => boolean;

/** What a handler can see of an object: its prototype, its own keys in order, and their descriptors (values by identity). */
function view(object: object): unknown[] {
  return [Object.getPrototypeOf(object), ...Reflect.ownKeys(object).flatMap((key) => {
    const d = Object.getOwnPropertyDescriptor(object, key)!;
    return [key, d.value, d.get, d.set, d.writable, d.enumerable, d.configurable];
  })];
}

const same = (a: unknown[], b: unknown[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

describe('sharedShapes', () => {
  test('leaves the request and the response as they were to every reader, in dictionary mode (one shared hidden class)', async () => {
    const seen: unknown[] = [];
    const app = express();
    app.use((req: Request, res: Response) => {
      (req as unknown as Record<string, unknown>).added = 1; // a property of the host's
      const before = { req: view(req), res: view(res), fast: [hasFastProperties(req), hasFastProperties(res)] };
      let nexts = 0;
      sharedShapes(req, res, () => nexts++);
      seen.push(before.fast, [hasFastProperties(req), hasFastProperties(res)], [same(view(req), before.req), same(view(res), before.res)], nexts);
      res.json({ added: (req as unknown as Record<string, unknown>).added });
    });
    expect((await request(app).get('/x')).body).toEqual({ added: 1 });
    // Fast (a hidden class of its own, after Express set its prototype) before; then one shared by all, and nothing else changed.
    expect(seen).toEqual([[true, true], [false, false], [true, true], 1]);
  });

  test('objects without a configurable url / req, or not extensible, are left as they were', () => {
    const fixed = Object.defineProperty({ a: 1 }, 'url', { value: '/x', enumerable: true });
    const frozen = Object.freeze({ req: fixed, b: 2 });
    const before = [view(fixed), view(frozen)];
    let nexts = 0;
    sharedShapes(fixed as unknown as Request, frozen as unknown as Response, () => nexts++);
    expect([same(view(fixed), before[0]!), same(view(frozen), before[1]!), nexts]).toEqual([true, true, 1]);
  });
});
