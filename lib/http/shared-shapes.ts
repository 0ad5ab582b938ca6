import type { RequestHandler } from 'express';

const PROBE = Symbol('content-router.shared-shapes');
const HIDDEN: PropertyDescriptor = { enumerable: false };
const SHOWN: PropertyDescriptor = { enumerable: true };

/**
 * Puts an object's properties in dictionary mode (V8), leaving it as it was to every reader (same properties, same
 * order, same attributes, same prototype): its own enumerable property `key` is made non-enumerable and enumerable
 * again (nothing runs in between), which costs half of the other way, a symbol property added and deleted (adding
 * a property first copies the object's map); that other way when `key` is not such a property.
 */
function toDictionary(object: object, key: string): void {
  if (Object.prototype.propertyIsEnumerable.call(object, key)) {
    try {
      Object.defineProperty(object, key, HIDDEN);
      Object.defineProperty(object, key, SHOWN);
      return;
    } catch {
      // Not configurable: unchanged (the first call throws).
    }
  }
  if (!Object.isExtensible(object)) return;
  const o = object as Record<symbol, unknown>;
  o[PROBE] = undefined;
  delete o[PROBE];
}

/**
 * The first middleware of the router: gives every request and response object one shared shape again, for speed.
 * An Express app sets the prototype of each request and response it handles (`Object.setPrototypeOf` in
 * `app.handle`), and V8 then leaves each object with a hidden class (map) of its own, outside any transition tree:
 * every property added afterwards (`req.next`, `req.params`, `req.route` by the router, the caller's ability, an
 * own `res.send`, Node's own fields as it answers) makes yet another new map, and every property read or write of
 * the code that handles the request (Express, Node's http, ours) misses its inline caches, which have never seen
 * that map, and takes V8's slow path. An object in dictionary mode has a map every such object shares: turning the
 * two objects to it once makes the rest of the request take the fast paths again. On the default list of the blog
 * model this cut the server's CPU time per request by about an eighth (bench:reads, docs/performance.md).
 * Nothing a handler can observe changes: the objects keep their properties, in their order, and their prototypes.
 *
 * @example
 * router.use(composeMiddleware([sharedShapes, authMiddleware(auth, readiness), ...]));
 */
export const sharedShapes: RequestHandler = (req, res, next) => {
  toDictionary(req, 'url'); // Node's own properties of every request and response
  toDictionary(res, 'req');
  next();
};
