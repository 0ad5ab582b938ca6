import { mergeConfig } from '../../../lib/project/merge-config';

describe('mergeConfig (lodash merge, as Strapi merges config/env/<NODE_ENV>/; arrays replaced for --options)', () => {
  it.each([
    ['objects key by key', { rest: { defaultLimit: 25, maxLimit: 100 } }, { rest: { maxLimit: 250 } }, 'merge', { rest: { defaultLimit: 25, maxLimit: 250 } }],
    ['arrays index by index', ['a', { name: 'b', config: { x: 1 } }, 'c'], [undefined, { config: { y: 2 } }], 'merge', ['a', { name: 'b', config: { x: 1, y: 2 } }, 'c']],
    ['arrays replaced', { auth: { apiTokens: [1, 2] } }, { auth: { apiTokens: [3] } }, 'replace', { auth: { apiTokens: [3] } }],
    ['undefined keeps the base', { a: 1 }, { a: undefined }, 'merge', { a: 1 }],
    ['a scalar replaces an object', { upload: { sizeLimit: 1 } }, { upload: false }, 'replace', { upload: false }],
  ] as const)('%s', (_name, base, over, arrays, expected) => {
    expect(mergeConfig(base, over, arrays)).toEqual(expected);
  });

  it('never sets a prototype from a "__proto__" key (JSON.parse makes it an own key) and changes neither argument', () => {
    const base = { auth: { public: { actions: [] } } };
    const over = JSON.parse('{"__proto__": {"polluted": true}, "auth": {"__proto__": {"polluted": true}}}') as object;
    const merged = mergeConfig(base, over, 'replace') as Record<string, Record<string, unknown>>;
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(merged.polluted).toBeUndefined();
    expect(merged.auth!.polluted).toBeUndefined();
    expect(base).toEqual({ auth: { public: { actions: [] } } });
  });
});
