/** @type {import('jest').Config} */
module.exports = {
  // Jest's node environment, plus the after-file clean-ups of __tests__/helpers/after-test-file.ts (test engines).
  testEnvironment: '<rootDir>/__tests__/helpers/test-environment.ts',
  roots: ['<rootDir>/__tests__'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] },
  testTimeout: 60000,
};
