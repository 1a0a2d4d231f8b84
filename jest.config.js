// Three jest projects, split by what a test needs, so a test of a rule never waits for a
// database: `unit` (no database, no process of its own, no browser), `integration` (real
// PostgreSQL, the apps in this process) and `e2e` (spawned processes, the build, Chromium,
// conformance suites). `pnpm test:unit`, `test:int` and `test:e2e` run one each; `jest` runs
// all three. Tests are transpiled by swc (type checking is tsc's job in `pnpm test`);
// ESM-only dependencies are transpiled too so CommonJS tests can load them.
const esmOnly = ['nanoid', 'kysely', 'jose', 'oauth4webapi'].join('|');

/**
 * The unit project: whole folders of pure tests, and the other files that need nothing but
 * the code (a file needing a database fails there: jest/unit-setup.ts hides it). Every other
 * test under packages/ and services/ is an integration test, every other one in test-e2e/ e2e.
 */
const UNIT = [
  'packages/domain/test/',
  'packages/config/test/',
  'packages/db/test/cache.test.ts',
  'packages/db/test/free-port.test.ts',
  'packages/db/test/layering.test.ts',
  'packages/db/test/refusal-sentences.test.ts',
  'packages/http/test/idempotency-key.test.ts',
  'packages/http/test/input.test.ts',
  'packages/http/test/kept-answer.test.ts',
  'packages/http/test/logger.test.ts',
  'packages/http/test/metrics.test.ts',
  'packages/http/test/page-style.test.ts',
  'packages/http/test/rest-judge.test.ts',
  'packages/http/test/template.test.ts',
  'packages/oauth/test/client-metadata.test.ts',
  'packages/workers/test/ticker.test.ts',
  'packages/workers/test/webhook-sender.test.ts',
  'test-e2e/docs.test.ts',
  'test-e2e/refusal-keywords.test.ts',
  'test-e2e/templates.test.ts',
  // The import graph of packages/*/src and services/*/src, read from the files.
  'test-e2e/import-circles.test.ts',
];
const unitGlobs = UNIT.map((p) => `<rootDir>/${p}${p.endsWith('/') ? '**/*.test.ts' : ''}`);
const notUnit = UNIT.map((p) => `<rootDir>/${p.replace(/\./g, '\\.')}${p.endsWith('/') ? '' : '$'}`);

const common = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.(t|j|mj)s$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } }],
  },
  transformIgnorePatterns: [`/node_modules/(?!(\\.pnpm/)?(${esmOnly})[@/])`],
  testPathIgnorePatterns: ['/node_modules/', ...notUnit],
};

// One PostgreSQL and one migrated template for the run: jest starts it once, before the first
// integration or e2e file, however many of the two projects run, and never for unit tests alone.
const withPostgres = {
  globalSetup: '<rootDir>/jest/global-setup.ts',
  globalTeardown: '<rootDir>/jest/global-teardown.ts',
};

/** @type {import('jest').Config} */
module.exports = {
  projects: [
    {
      ...common,
      displayName: 'unit',
      roots: ['<rootDir>/packages', '<rootDir>/test-e2e'],
      testMatch: unitGlobs,
      testPathIgnorePatterns: ['/node_modules/'],
      setupFiles: ['<rootDir>/jest/unit-setup.ts'],
    },
    {
      ...common,
      ...withPostgres,
      displayName: 'integration',
      roots: ['<rootDir>/packages', '<rootDir>/services'],
      testMatch: ['**/test/**/*.test.ts'],
    },
    {
      ...common,
      ...withPostgres,
      displayName: 'e2e',
      roots: ['<rootDir>/test-e2e'],
      testMatch: ['**/*.test.ts'],
    },
  ],
  // Two cores: two test files at a time, whichever projects they come from. The timeout is
  // the run's, not a project's (jest reads only the top-level one).
  maxWorkers: 2,
  testTimeout: 30_000,
  reporters: ['default', '<rootDir>/jest/summary-reporter.js'],
};
