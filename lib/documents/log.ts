import createDebug from 'debug';

const debugPipeline = createDebug('content-router:pipeline');

/** Logs a compiled pipeline and how long the engine took (DEBUG=content-router:*). */
export function logPipeline(collection: string, pipeline: unknown, started: number): void {
  if (debugPipeline.enabled) debugPipeline('%s %dms %j', collection, Date.now() - started, pipeline);
}
