import type { Pipeline, Row } from '../../../lib/engine';
import { createContext } from '../../../lib/engine/memory/semantics/mingo-context';
import { Aggregator, pipelineOperators } from '../../../lib/engine/memory/semantics/mingo-runtime';

/**
 * `$min` / `$max` in every place mingo runs them (lib/engine/memory/semantics/expression-comparison.ts): the accumulator in
 * `$group`, `$bucket` and `$setWindowFields`, the expression elsewhere, both in BSON order
 * (https://www.mongodb.com/docs/manual/reference/operator/aggregation/max/, .../aggregation/min/,
 * https://www.mongodb.com/docs/manual/reference/bson-type-comparison-order/: Null < Numbers < String < Object <
 * Array < Boolean).
 */
const run = (pipeline: Pipeline, rows: readonly Row[]): Row[] =>
  new Aggregator(pipeline, { scriptEnabled: true, context: createContext(pipelineOperators.$lookup) } as never).run(rows.map((r) => ({ ...r }))) as Row[];

const rows: Row[] = [
  { g: 1, arr: [1, 2], v: [1, 5] }, { g: 1, arr: [1], v: true }, { g: 2, arr: [], v: { a: 1 } }, { g: 2, arr: [4, 3, 2], v: 's' }, { g: 3, v: null },
];
const all = ['unbounded', 'unbounded'];

it.each<[string, Pipeline, Row[]]>([
  [
    'a $group field: the accumulator over the documents, of a computed operand',
    [{ $group: { _id: '$g', max: { $max: { $size: { $ifNull: ['$arr', []] } } }, min: { $min: { $size: { $ifNull: ['$arr', []] } } } } }, { $sort: { _id: 1 } }],
    [{ _id: 1, max: 2, min: 1 }, { _id: 2, max: 3, min: 0 }, { _id: 3, max: 0, min: 0 }],
  ],
  [
    'a $group field: values of every type in BSON order, an array one value, null ignored',
    [{ $group: { _id: null, max: { $max: '$v' }, min: { $min: '$v' }, maxArr: { $max: '$arr' }, minArr: { $min: '$arr' } } }],
    [{ _id: null, max: true, min: 's', maxArr: [4, 3, 2], minArr: [] }],
  ],
  [
    'a $group field that nests the expression: per document the largest element, then the largest of those',
    [{ $group: { _id: null, max: { $max: { $max: '$arr' } }, min: { $min: { $min: '$arr' } } } }],
    [{ _id: null, max: 4, min: 1 }],
  ],
  [
    'a $bucket output field: the accumulator', // (boundaries between the keys: mingo 7.2.7 puts a key equal to one in the bucket below)
    [{ $bucket: { groupBy: '$g', boundaries: [0, 1.5, 4], output: { max: { $max: { $size: { $ifNull: ['$arr', []] } } } } } }],
    [{ _id: 0, max: 2 }, { _id: 1.5, max: 3 }],
  ],
  [
    'a $setWindowFields output: the accumulator over the window, in BSON order',
    [{ $setWindowFields: { sortBy: { g: 1 }, output: { max: { $max: '$v', window: { documents: all } }, min: { $min: '$v', window: { documents: all } } } } }, { $limit: 1 }, { $project: { _id: 0, max: 1, min: 1 } }],
    [{ max: true, min: 's' }],
  ],
  [
    'an expression whose document is an array ($$this in $reduce): the expression, not the accumulator',
    [{ $limit: 1 }, { $project: { _id: 0, m: { $reduce: { input: [[1, 2], [7, 3, 4]], initialValue: 0, in: { $add: ['$$value', { $max: { $size: '$$this' } }] } } } } }],
    [{ m: 5 }],
  ],
  [
    'an expression of one computed array operand: its elements; of a list: the operands',
    [{ $project: { _id: 0, max: { $max: { $concatArrays: [{ $ifNull: ['$arr', []] }, [0]] } }, list: { $min: ['$v', 2] } } }],
    [{ max: 2, list: 2 }, { max: 1, list: 2 }, { max: 0, list: 2 }, { max: 4, list: 2 }, { max: 0, list: 2 }],
  ],
])('%s', (_name, pipeline, expected) => {
  expect(run(pipeline, rows)).toEqual(expected);
});

it.each(['$min', '$max'])('%s in a $group field with an array operand is refused, as mongod refuses it', (op) => {
  expect(() => run([{ $group: { _id: null, m: { [op]: ['$g', 1] } } }], rows)).toThrow(`The ${op} accumulator is a unary operator`);
});
