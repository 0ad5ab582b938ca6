// openid-client (social login, lib/users-permissions/connect/) and the two packages it loads are ES modules only.
// Node >= 20.19 loads them with require(); Jest's own module loader cannot, so ts-jest turns these three into
// CommonJS for the tests (the published library loads the packages as they are).
const ESM_ONLY = ['openid-client', 'oauth4webapi', 'jose'];

/** @type {import('jest').Config} */
module.exports = {
  // Jest's node environment, plus the after-file clean-ups of __tests__/helpers/after-test-file.ts (test engines).
  testEnvironment: '<rootDir>/__tests__/helpers/test-environment.ts',
  roots: ['<rootDir>/__tests__'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { diagnostics: false }],
    [`/node_modules/(${ESM_ONLY.join('|')})/.+\\.js$`]: ['ts-jest', { diagnostics: false, tsconfig: { allowJs: true, module: 'commonjs', target: 'ES2022' } }],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY.join('|')})/)`],
  testTimeout: 60000,
};
