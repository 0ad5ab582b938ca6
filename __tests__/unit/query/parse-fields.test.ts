import { invalidKey, parse, parseError } from './parse-helper';

const INVALID = { name: 'ValidationError', message: 'Invalid fields parameter. Expected a string or an array of strings', details: {} };

describe('parseFields', () => {
  it.each([
    ['', null],
    ['fields[0]=title', ['title']],
    ['fields=title', ['title']],
    ['fields=title,views', ['title', 'views']],
    ['fields=title, views ,title', ['title', 'views']],
    ['fields[0]=title&fields[1]=rating&fields[2]=publishDate&fields[3]=featured', ['title', 'rating', 'publishDate', 'featured']],
    ['fields=*', null],
    ['fields[0]=title&fields[1]=*', null],
    ['fields[0]=id&fields[1]=documentId&fields[2]=locale&fields[3]=createdAt', ['id', 'documentId', 'locale', 'createdAt']],
  ])('%s', (raw, expected) => {
    expect(parse(raw).fields).toEqual(expected);
  });

  it.each([
    ['fields[0]=nope', 'api::article.article', invalidKey('nope', null, 'fields')],
    ['fields[0]=author', 'api::article.article', invalidKey('author', 'author', 'fields')],
    ['fields[0]=seo', 'api::article.article', invalidKey('seo', 'seo', 'fields')],
    ['fields[0]=internalNote&fields[1]=name', 'api::author.author', invalidKey('internalNote', 'internalNote', 'fields')],
    ['fields[0]=locale', 'api::author.author', invalidKey('locale', null, 'fields')],
    ['fields[title]=1', 'api::article.article', INVALID],
    ['fields[0][a]=1', 'api::article.article', INVALID],
    ['fields', 'api::article.article', 'no error'],
  ])('%s on %s', (raw, uid, expected) => {
    expect(parseError(raw, { uid })).toEqual(expected);
  });
});
