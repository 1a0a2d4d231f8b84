// The import graph and the size rules of ARCHITECTURE.md ("Size"), as lint rules: a
// package may import only the packages below it, never another package's files by a
// relative path, and operations and pages never the database package's values.

/** What each package's source may import of ours (by package name, without @frontdesk/). */
export const GRAPH = {
  'packages/domain': [],
  'packages/config': [],
  'packages/db': ['domain'],
  'packages/use-cases': ['domain', 'db'],
  'packages/http': ['domain', 'config'],
  'packages/workers': ['domain', 'db', 'use-cases'],
  'packages/oauth': ['domain', 'config', 'db', 'http', 'use-cases'],
  'services/pro-desk': ['domain', 'config', 'db', 'http', 'use-cases', 'oauth', 'workers'],
  'services/booking': ['domain', 'config', 'db', 'http', 'use-cases', 'oauth', 'workers'],
};

/** `dev-env` is in no package's list: what tests share never ships. */
const OURS = ['domain', 'config', 'db', 'use-cases', 'http', 'workers', 'oauth', 'pro-desk', 'booking', 'dev-env'];

/** A relative path that climbs out of its package into another one's files. */
const INTO_ANOTHER_PACKAGE = '^(\\.\\./)+(packages/|services/)?[a-z-]+/(src|dist)(/|$)';

const graphRules = Object.entries(GRAPH).map(([dir, allowed]) => ({
  files: [`${dir}/src/**/*.ts`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: OURS.filter((p) => !allowed.includes(p)).map((p) => `@frontdesk/${p}`),
            message: `ARCHITECTURE.md: ${dir} imports ${allowed.length ? `only ${allowed.map((p) => `@frontdesk/${p}`).join(', ')}` : 'nothing of ours'}.`,
          },
          { regex: INTO_ANOTHER_PACKAGE, message: 'Import another package by its name, never by a path into its files.' },
        ],
      },
    ],
  },
}));

/** A path from a test into another package's, a service's or the end-to-end tests' files. */
const INTO_ANOTHER_TEST_FOLDER = '^(\\.\\./)+((packages/|services/)?[a-z-]+/test|test-e2e)(/|$)';

const intoAnotherTestFolder = {
  regex: INTO_ANOTHER_TEST_FOLDER,
  message: "A test imports what another package's tests share from @frontdesk/dev-env, never from their folder.",
};

/**
 * Tests share helpers through @frontdesk/dev-env alone: a test that reaches into another
 * package's test folder ties two suites together behind the graph's back. dev-env itself
 * imports packages by name, like any package.
 */
const testsShareThroughDevEnv = [
  {
    files: ['packages/*/test/**/*.ts', 'services/*/test/**/*.ts', 'test-e2e/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [intoAnotherTestFolder] }] },
  },
  {
    files: ['packages/dev-env/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [intoAnotherTestFolder, { regex: INTO_ANOTHER_PACKAGE, message: 'Import another package by its name, never by a path into its files.' }] },
      ],
    },
  },
];

/** Operations only present what a use case returns; pages act through operations and use cases. */
const presentOnly = {
  files: [
    'services/*/src/operations/**/*.ts',
    'services/booking/src/pages/**/*.ts',
    'services/pro-desk/src/dashboard/**/*.ts',
    'services/pro-desk/src/key-page.ts',
    'services/pro-desk/src/sign-up-page.ts',
  ],
  rules: {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        paths: [
          {
            name: '@frontdesk/db',
            allowTypeImports: true,
            message: 'Operations and pages call use cases (packages/use-cases), never queries; a type from @frontdesk/db is fine.',
          },
        ],
      },
    ],
  },
};

/** Functions small enough to read at once, with few enough arguments to call without looking them up. */
const sizes = {
  files: ['packages/*/src/**/*.ts', 'services/*/src/**/*.ts'],
  ignores: ['packages/db/src/migrations/**', 'packages/dev-env/**'],
  rules: {
    'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }],
    'max-params': ['error', 4],
  },
};

export const architecture = [...graphRules, ...testsShareThroughDevEnv, presentOnly, sizes];
