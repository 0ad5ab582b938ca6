import { DuplicateKeyError } from '../../../lib/engine';
import { SINGLE_TYPES_COLLECTION } from '../../../lib/engine/indexes';
import { claimConflict, SingleTypeTaken } from '../../../lib/documents/single-type-claim';
import { isDocumentClash, uniqueViolation } from '../../../lib/documents/unique-violation';
import { ValidationError } from '../../../lib/errors';
import { createRegistry } from '../../../lib/schema';

const registry = createRegistry({
  contentTypes: [{
    kind: 'singleType',
    collectionName: 'pages',
    info: { singularName: 'page', pluralName: 'pages', displayName: 'Page' },
    attributes: { slug: { type: 'uid' }, title: { type: 'string' } },
  }] as never,
});
const ct = registry.contentType('api::page.page');

describe('uniqueViolation: a duplicate key on a unique attribute index is the 400 unique error', () => {
  it('maps unique_<attribute> of the type to "This attribute must be unique" with the written value', () => {
    const mapped = uniqueViolation(ct, new DuplicateKeyError('pages', 'unique_slug'), { slug: 'a' });
    expect(mapped).toBeInstanceOf(ValidationError);
    expect(mapped).toMatchObject({
      message: 'This attribute must be unique',
      details: { errors: [{ path: ['slug'], message: 'This attribute must be unique', name: 'ValidationError', value: 'a' }] },
    });
  });

  it.each([
    ['another collection', new DuplicateKeyError('other', 'unique_slug')],
    ['another index', new DuplicateKeyError('pages', 'document_locale_status')],
    ['an index of no attribute', new DuplicateKeyError('pages', 'unique_nope')],
    ['another error', new Error('boom')],
  ])('leaves %s alone', (_name, error) => {
    expect(uniqueViolation(ct, error, { slug: 'a' })).toBe(error);
  });
});

describe('isDocumentClash and claimConflict', () => {
  it.each([
    [new DuplicateKeyError('pages', 'document_locale_status'), true],
    [new DuplicateKeyError('pages', 'id'), false],
    [new DuplicateKeyError('other', 'document_locale_status'), false],
    [new Error('x'), false],
  ])('isDocumentClash(%p) -> %p', (error, expected) => {
    expect(isDocumentClash(ct, error)).toBe(expected);
  });

  it('turns a duplicate claim row into SingleTypeTaken (a 400 ValidationError), and leaves other errors alone', () => {
    expect(claimConflict(ct, new DuplicateKeyError(SINGLE_TYPES_COLLECTION, '_id_'))).toBeInstanceOf(SingleTypeTaken);
    expect(claimConflict(ct, new DuplicateKeyError(SINGLE_TYPES_COLLECTION, '_id_'))).toBeInstanceOf(ValidationError);
    const other = new DuplicateKeyError('pages', '_id_');
    expect(claimConflict(ct, other)).toBe(other);
  });
});
