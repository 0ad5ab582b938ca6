import createDebug from 'debug';
import { redactCredentials } from '../errors';

const debugPipeline = createDebug('content-router:pipeline');

/**
 * Runs one read (`engine.aggregate`) and logs its compiled pipeline and how long the engine took
 * (DEBUG=content-router:pipeline), whether it succeeds (`<collection> <n>ms <pipeline>`) or fails
 * (`<collection> failed after <n>ms: <error> <pipeline>`, then the error is thrown on).
 *
 * @example
 * const rows = await loggedRead(ct.collectionName, pipeline, () => engine.aggregate(ct.collectionName, pipeline));
 */
export async function loggedRead<T>(collection: string, pipeline: unknown, read: () => Promise<T>): Promise<T> {
  const started = Date.now();
  let result: T;
  try {
    result = await read();
  } catch (error) {
    if (debugPipeline.enabled) debugPipeline('%s failed after %dms: %s %j', collection, Date.now() - started, describe(error), pipeline);
    throw error;
  }
  if (debugPipeline.enabled) debugPipeline('%s %dms %j', collection, Date.now() - started, pipeline);
  return result;
}

function describe(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return redactCredentials(text.replace(/\s+/g, ' '));
}
