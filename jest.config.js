// One jest run over every package. Tests are transpiled by swc (type checking is tsc's
// job in `pnpm test`); ESM-only dependencies are transpiled too so CommonJS tests can load them.
const esmOnly = ['nanoid', 'kysely', 'jose', 'oauth4webapi'].join('|');

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/packages', '<rootDir>/services', '<rootDir>/test-e2e'],
  testMatch: ['**/test/**/*.test.ts', '**/test-e2e/**/*.test.ts'],
  transform: {
    '^.+\\.(t|j|mj)s$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } }],
  },
  transformIgnorePatterns: [`/node_modules/(?!(\\.pnpm/)?(${esmOnly})[@/])`],
  globalSetup: '<rootDir>/jest/global-setup.ts',
  globalTeardown: '<rootDir>/jest/global-teardown.ts',
  testTimeout: 30_000,
  maxWorkers: 2,
  reporters: ['default', '<rootDir>/jest/summary-reporter.js'],
};
