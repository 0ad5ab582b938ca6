import type { Pipeline, Row } from '../../../types';
import { isLimit, onlyKey } from '../eligibility';
import type { PipelinePath } from '../fast-path';
import type { RowSet, StageFn } from '../stage-context';

/**
 * The path: per-document stages starting with a `$lookup` up to a `$limit` ({@link planLimitedStream}), run a
 * few rows at a time until the limit is reached ({@link runLimitedStream}).
 *
 * @example
 * limitedStream.accepts([{ $lookup: {...} }, { $limit: 10 }], 0, cx)
 */
export const limitedStream: PipelinePath = {
  name: 'limited-stream',
  kind: 'pipeline',
  operators: ['$lookup'],
  accepts(pipeline, at, cx) {
    const stream = planLimitedStream(pipeline, at);
    if (!stream) return null;
    const run = cx.compile(stream.stages);
    return { next: stream.next, run: (input) => runLimitedStream(run, input.rows, input.owned, stream.limit) };
  },
};

/** Stages whose output for a document depends on that document alone, and keeps the input order. */
const PER_DOCUMENT = new Set(['$lookup', '$project', '$addFields', '$set', '$unset', '$unwind', '$match']);

/** The most input rows one chunk of {@link runLimitedStream} runs. */
const MAX_CHUNK = 256;

/** A run of per-document stages starting with a `$lookup`, then a `$limit`. */
export interface LimitedStream {
  readonly stages: Pipeline;
  readonly limit: number;
  /** The index of the stage after the `$limit`. */
  readonly next: number;
}

/**
 * The per-document stages from `from` (the first a `$lookup`) up to a `$limit` that ends them, or null. Such a
 * run gives the same rows whether it sees the input at once or a few rows at a time, and MongoDB's stages pass
 * documents on one at a time: past the `$limit`'s last document no `$lookup` runs for the input rows left
 * (https://www.mongodb.com/docs/manual/core/aggregation-pipeline-optimization/ moves nothing across a `$lookup`
 * or an `$unwind`, so the order of the stages stays). The join count of documents/join-budget relies on it.
 *
 * @example
 * planLimitedStream([{ $lookup: {...} }, { $unwind: '$j' }, { $limit: 10 }], 0) // { stages: [$lookup, $unwind], limit: 10, next: 3 }
 */
export function planLimitedStream(pipeline: Pipeline, from: number): LimitedStream | null {
  if (onlyKey(pipeline[from], '$lookup') === undefined) return null;
  for (let i = from; i < pipeline.length; i++) {
    const stage = pipeline[i]!;
    const limit = onlyKey(stage, '$limit');
    if (isLimit(limit)) return { stages: pipeline.slice(from, i), limit, next: i + 1 };
    const keys = Object.keys(stage);
    if (keys.length !== 1 || !PER_DOCUMENT.has(keys[0]!)) return null;
  }
  return null;
}

/**
 * Runs `run` (the compiled stages of a {@link LimitedStream}) on `rows` in chunks of 1, 2, 4... rows (at most
 * {@link MAX_CHUNK}), until `limit` rows came out: the first `limit` rows of running it on all of them.
 *
 * @example
 * runLimitedStream(cx.compile(stream.stages), rows, false, stream.limit)
 */
export function runLimitedStream(run: StageFn, rows: readonly Row[], owned: boolean, limit: number): RowSet {
  const out: Row[] = [];
  let allOwned = true;
  let chunk = 1;
  for (let at = 0; at < rows.length && out.length < limit; at += chunk, chunk = Math.min(chunk * 2, MAX_CHUNK)) {
    const part = run(rows.slice(at, at + chunk), owned, {});
    allOwned &&= part.owned;
    for (const row of part.rows) {
      if (out.length === limit) break;
      out.push(row);
    }
  }
  return { rows: out, owned: allOwned };
}
