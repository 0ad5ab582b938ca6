/**
 * The parts of mingo the memory engine wires together itself. mingo's package `exports` map these subpaths,
 * but TypeScript's `node` resolution does not read `exports`, so they are required here and typed from
 * mingo's own declaration files. This is the only file that knows mingo's layout.
 */
import type { Options } from 'mingo/types/types';
import type { Pipeline, Row } from '../../types';

type PipelineOps = typeof import('mingo/types/operators/pipeline');
type LookupOperator = PipelineOps['$lookup'];

export const pipelineOperators = require('mingo/operators/pipeline') as PipelineOps;
export const { Lazy } = require('mingo/lazy') as typeof import('mingo/types/lazy');
export const { Aggregator } = require('mingo/aggregator') as typeof import('mingo/types/aggregator');
export const { evalExpr } = require('mingo/core') as typeof import('mingo/types/core');
export const accumulatorOperators = require('mingo/operators/accumulator') as typeof import('mingo/types/operators/accumulator');
export const expressionOperators = require('mingo/operators/expression') as typeof import('mingo/types/operators/expression');
export const projectionOperators = require('mingo/operators/projection') as typeof import('mingo/types/operators/projection');
export const queryOperators = require('mingo/operators/query') as typeof import('mingo/types/operators/query');
export const windowOperators = require('mingo/operators/window') as typeof import('mingo/types/operators/window');
export type { Iterator } from 'mingo/types/lazy';
export type { LookupOperator, Options };
/** The options `Query` and `Aggregator` take. */
export type QueryOptions = Partial<Options>;

/** `options` with `vars` bound as variables (the enclosing `$lookup`s' `let`), as mingo reads them. */
export function withVariables(options: QueryOptions, vars: Readonly<Record<string, unknown>>): QueryOptions {
  return Object.keys(vars).length === 0 ? options : { ...options, variables: { ...options.variables, ...vars } };
}

/** Runs `stages` in mingo on `rows` with `vars` bound (the result is never owned). */
export function mingoStages(options: QueryOptions, stages: Pipeline, rows: readonly Row[], vars: Readonly<Record<string, unknown>>): Row[] {
  return new Aggregator(stages, withVariables(options, vars)).run(rows as Row[]) as Row[];
}
