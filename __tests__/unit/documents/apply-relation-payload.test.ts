import { applyRelationPayload, normalizeRelationPayload } from '../../../lib/documents/relations/apply-relation-payload';

describe('normalizeRelationPayload', () => {
  it.each([
    ['null clears', null, { set: [], connect: [], disconnect: [] }],
    ['a documentId', 'a', { set: [{ documentId: 'a' }], connect: [], disconnect: [] }],
    ['an integer id', 7, { set: [{ id: 7 }], connect: [], disconnect: [] }],
    ['an array', ['a', 3], { set: [{ documentId: 'a' }, { id: 3 }], connect: [], disconnect: [] }],
    ['an item object', { documentId: 'a', locale: 'fr' }, { set: [{ documentId: 'a', locale: 'fr' }], connect: [], disconnect: [] }],
    ['longhand', { connect: ['a'], disconnect: [{ id: '4' }] }, { set: undefined, connect: [{ documentId: 'a' }], disconnect: [{ id: 4 }] }],
    ['non-strict', { connect: [], options: { strict: false } }, { set: undefined, connect: [], disconnect: [], strict: false }],
  ])('%s', (_name, input, expected) => {
    expect(normalizeRelationPayload(input)).toEqual(expected);
  });
});

describe('applyRelationPayload', () => {
  const connect = (...items: [string, Record<string, unknown>?][]) => items.map(([documentId, position]) => ({ documentId, position }));

  it.each([
    ['set replaces and dedupes', ['a'], { set: ['c', 'b', 'c'], connect: [], disconnect: [] }, ['c', 'b']],
    ['disconnect then connect at the end', ['a', 'b'], { connect: connect(['c']), disconnect: ['a'] }, ['b', 'c']],
    ['connect a present doc moves it to the end', ['a', 'b', 'c'], { connect: connect(['a']), disconnect: [] }, ['b', 'c', 'a']],
    ['start', ['a', 'b'], { connect: connect(['c', { start: true }]), disconnect: [] }, ['c', 'a', 'b']],
    ['end', ['a', 'b'], { connect: connect(['a', { end: true }]), disconnect: [] }, ['b', 'a']],
    ['before', ['a', 'b'], { connect: connect(['c', { before: 'b' }]), disconnect: [] }, ['a', 'c', 'b']],
    ['after', ['a', 'b'], { connect: connect(['c', { after: 'a' }]), disconnect: [] }, ['a', 'c', 'b']],
    ['relative to a later item of the same connect', ['a'], { connect: connect(['c', { before: 'b' }], ['b', { start: true }]), disconnect: [] }, ['c', 'b', 'a']],
    ['non-strict unknown anchor goes to the end', ['a'], { connect: connect(['c', { before: 'zz' }], ['d']), disconnect: [], strict: false }, ['a', 'c', 'd']],
  ])('%s', (_name, current, payload, expected) => {
    expect(applyRelationPayload(current, payload)).toEqual(expected);
  });

  it('a position naming an unconnected doc is a ValidationError (strict by default)', () => {
    expect(() => applyRelationPayload(['a'], { connect: connect(['c', { after: 'zz' }]), disconnect: [] })).toThrow(
      'There was a problem connecting relation with id c at position {"after":"zz"}. The relation with id zz needs to be connected first.',
    );
  });
});
