import { Types } from 'mongoose';
import { DuplicateKeyError, mongoEngine } from '../../../lib/engine';
import { fromBson } from '../../../lib/engine/mongo/from-bson';
import { mapMongoError } from '../../../lib/engine/mongo/map-mongo-error';

describe('mapMongoError', () => {
  it('maps E11000 to DuplicateKeyError with the index name', () => {
    const error = Object.assign(new Error('E11000 duplicate key error collection: test.articles index: doc_locale_status dup key: { documentId: "x" }'), { code: 11000 });
    const mapped = mapMongoError(error, 'articles');
    expect(mapped).toBeInstanceOf(DuplicateKeyError);
    expect(mapped).toMatchObject({ collection: 'articles', index: 'doc_locale_status' });
  });

  it('maps a bulk write error whose first write error is E11000', () => {
    expect(mapMongoError({ message: 'bulk', writeErrors: [{ code: 11000 }] }, 'a')).toMatchObject({ name: 'DuplicateKeyError', index: 'unknown' });
  });

  it('returns other errors unchanged', () => {
    const error = Object.assign(new Error('other'), { code: 2 });
    expect(mapMongoError(error, 'a')).toBe(error);
  });
});

describe('fromBson', () => {
  it('turns every ObjectId into its hex string, deeply, and keeps other values', () => {
    const id = new Types.ObjectId();
    const date = new Date(0);
    expect(fromBson({ _id: id, at: date, joined: [{ _id: id, n: 1 }], x: null })).toEqual({
      _id: id.toHexString(), at: date, joined: [{ _id: id.toHexString(), n: 1 }], x: null,
    });
  });
});

describe('mongoEngine options', () => {
  it('needs exactly one of connection or uri', () => {
    expect(() => mongoEngine({})).toThrow('exactly one');
  });

  it('refuses an unknown option with a did-you-mean (a typo would silently keep the default)', () => {
    const typo = { uri: 'mongodb://127.0.0.1:1/never', trasactions: false } as unknown as Parameters<typeof mongoEngine>[0];
    expect(() => mongoEngine(typo)).toThrow(expect.objectContaining({ code: 'CR_INVALID_OPTIONS', message: expect.stringMatching(/trasactions.*did you mean "transactions"/) }));
  });

  it('does not connect before first use', async () => {
    const engine = mongoEngine({ uri: 'mongodb://127.0.0.1:1/never' });
    expect(engine.name).toBe('mongo');
    await engine.close();
  });
});
