import { compileDocumentJson, formatDocument } from '../../../lib/format';
import { cachedWriter } from '../../../lib/format/writer-cache';
import { deepFreeze } from '../../../lib/query';
import { loadBlogRegistry } from '../../helpers/blog-registry';
import { parse, registry } from '../query/parse-helper';

const UID = 'api::article.article';

describe('cachedWriter', () => {
  it('reuses the writer of a selection with the same output shape, whatever its filters or sort', () => {
    let compiled = 0;
    const compile = () => ++compiled;
    const a = cachedWriter(registry, 'same-shape', parse('populate[author][fields][0]=name&filters[title][$eq]=x'), compile);
    const b = cachedWriter(registry, 'same-shape', parse('populate[author][fields][0]=name&sort=title'), compile);
    expect(a).toBe(b);
    expect(compiled).toBe(1);
  });

  it.each([
    ['fields', 'fields[0]=title', 'fields[0]=slug'],
    ['populated names', 'populate[author]=true', 'populate[cover]=true'],
    ['nested fields', 'populate[author][fields][0]=name', 'populate[author][fields][0]=email'],
    ['count', 'populate[categories][count]=true', 'populate[categories]=true'],
    ['on', 'populate[blocks][on][shared.quote][fields][0]=title', 'populate[blocks][on][shared.quote][fields][0]=body'],
  ])('compiles another writer when %s differ', (_name, first, second) => {
    let compiled = 0;
    const compile = () => ++compiled;
    cachedWriter(registry, `differ-${_name}`, parse(first), compile);
    cachedWriter(registry, `differ-${_name}`, parse(second), compile);
    expect(compiled).toBe(2);
  });

  it('finds the writer of a frozen selection by identity, for its own type and registry only', () => {
    let compiled = 0;
    const compile = () => ++compiled;
    const frozen = deepFreeze(parse('populate[author][fields][0]=name'), 'attribute');
    const a = cachedWriter(registry, 'frozen-a', frozen, compile);
    expect(cachedWriter(registry, 'frozen-a', frozen, compile)).toBe(a);
    expect(cachedWriter(registry, 'frozen-b', frozen, compile)).not.toBe(a);
    expect(cachedWriter(loadBlogRegistry(), 'frozen-a', frozen, compile)).not.toBe(a);
    expect(compiled).toBe(3);
  });

  it('keeps at most 256 writers per registry', () => {
    let compiled = 0;
    const compile = () => ++compiled;
    const first = parse('fields[0]=title&populate[author][fields][0]=name');
    cachedWriter(registry, 'bounded', first, compile);
    for (let i = 0; i < 256; i++) cachedWriter(registry, `other-${i}`, first, compile);
    cachedWriter(registry, 'bounded', first, compile);
    expect(compiled).toBe(258);
  });
});

describe('compileDocumentJson with cached writers', () => {
  it('writes a joined row again when it is replaced by a new object', () => {
    const query = parse('populate[author]=true');
    const author = { id: 1, documentId: 'a', name: 'Ann' };
    const row = { id: 1, documentId: 'd', title: 't', author };
    const before = compileDocumentJson(registry, UID, query)(row);
    const next = { ...row, author: { ...author, name: 'Bob' } };
    const after = compileDocumentJson(registry, UID, query)(next);
    expect(after).toBe(JSON.stringify(formatDocument(registry, UID, next, query)));
    expect(after).not.toBe(before);
  });
});
