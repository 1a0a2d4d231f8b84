import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';
import { ROOT, sources } from './helpers';

// Each kind of code has one room (ARCHITECTURE.md, "Where things go"): queries in
// packages/db, environment reads in the config modules, a business's promises (a code's
// lifetime, the free-cancel window, the booking fee) written once in policy and said by the
// words, secrets minted and hashed by the database package alone. These checks read the
// source as text, so a new file is covered the day it is added.

// packages/dev-env is what tests share, never run in production: it has no room here.
const roots = [
  ...readdirSync(join(ROOT, 'packages'))
    .filter((p) => p !== 'dev-env')
    .map((p) => join(ROOT, 'packages', p, 'src')),
  ...readdirSync(join(ROOT, 'services')).map((p) => join(ROOT, 'services', p, 'src')),
  join(ROOT, 'scripts'),
];
const files = roots
  .flatMap((dir) => sources(dir))
  .map((path) => ({ path: relative(ROOT, path), text: readFileSync(path, 'utf8') }))
  .filter((f) => !f.path.includes('/migrations/'));
const offenders = (test: (f: { path: string; text: string }) => boolean) => files.filter(test).map((f) => f.path);

const QUERY = /\.(selectFrom|insertInto|updateTable|deleteFrom)\(|\bsql`/;
const POLICY_TEXTS = /10 minutes|24 hours|5 USD/;

describe('the rooms of the code', () => {
  it('has the sources to check', () => {
    expect(files.length).toBeGreaterThan(100);
  });

  it('runs queries only in packages/db', () => {
    expect(offenders((f) => !f.path.startsWith('packages/db/src/') && QUERY.test(f.text))).toEqual([]);
  });

  it('reads the environment only in the config modules and the scripts', () => {
    const allowed = (path: string) =>
      path.startsWith('packages/config/src/') ||
      /^services\/[^/]+\/src\/config\.ts$/.test(path) ||
      path.startsWith('scripts/') ||
      // Test support: where the tests' database comes from (TEST_DATABASE_URL, the template jest made).
      path === 'packages/db/src/testing.ts';
    expect(offenders((f) => !allowed(f.path) && /process\.env\b/.test(f.text.replace(/^\s*(\*|\/\/).*$/gm, '')))).toEqual([]);
  });

  it('writes no policy as a literal: a code lifetime, the free-cancel window and the fee come from policy.ts', () => {
    expect(offenders((f) => POLICY_TEXTS.test(f.text))).toEqual([]);
  });

  it('mints and hashes secrets only in packages/db, whose index does not export them', () => {
    expect(offenders((f) => !f.path.startsWith('packages/db/src/') && /\b(hashSecret|newToken|newKey)\b/.test(f.text))).toEqual([]);
    expect(readFileSync(join(ROOT, 'packages/db/src/index.ts'), 'utf8')).not.toMatch(/secrets/);
  });

  it('is checked by patterns that do catch a violation', () => {
    expect(QUERY.test("await db.selectFrom('pros')")).toBe(true);
    expect(QUERY.test('await sql`SELECT 1`.execute(db)')).toBe(true);
    expect(POLICY_TEXTS.test('It works once, for 10 minutes.')).toBe(true);
  });
});

// Each probe is a real source file with one import added, linted by the project's own
// ESLint in a process of its own (jest cannot load the ESM config): one run for them all.
const PROBES = {
  upward: ['packages/domain/src/money.ts', "import { newId } from '@frontdesk/db';\nexport const _lintProbe = newId;"],
  upwardFromDb: ['packages/db/src/ids.ts', "import { createBusiness } from '@frontdesk/use-cases';\nexport const _lintProbe = createBusiness;"],
  intoFiles: ['packages/use-cases/src/demo.ts', "import { newId as probe } from '../../db/src/ids';\nexport const _lintProbe = probe;"],
  operationQuery: ['services/booking/src/operations/present.ts', "import { getPro } from '@frontdesk/db';\nexport const _lintProbe = getPro;"],
  pageQuery: ['services/booking/src/pages/find.ts', "import { getPro } from '@frontdesk/db';\nexport const _lintProbe = getPro;"],
  operationType: ['services/booking/src/operations/present.ts', "import type { Db } from '@frontdesk/db';\nexport type LintProbe = Db;"],
  downward: ['packages/use-cases/src/demo.ts', "import { newId as probe } from '@frontdesk/db';\nexport const _lintProbe = probe;"],
  shipsTestSupport: ['services/booking/src/main.ts', "import { makePro } from '@frontdesk/dev-env/factories';\nexport const _lintProbe = makePro;"],
  intoTestFolder: [
    'services/booking/test/mcp.test.ts',
    "import { mcpClient as probe } from '../../pro-desk/test/mcp-client';\nexport const _lintProbe = probe;",
  ],
  e2eIntoTestFolder: ['test-e2e/fuzz.test.ts', "import { bothHosts as probe } from '../services/booking/test/harness';\nexport const _lintProbe = probe;"],
  throughDevEnv: ['services/booking/test/mcp.test.ts', "import { mcpClient as probe } from '@frontdesk/dev-env/mcp-client';\nexport const _lintProbe = probe;"],
} as const;

const LINT_PROBES = `
import { ESLint } from 'eslint';
import { readFileSync } from 'node:fs';
const probes = JSON.parse(readFileSync(0, 'utf8'));
const eslint = new ESLint({ cwd: process.cwd() });
const out = {};
for (const [name, [path, extra]] of Object.entries(probes)) {
  const [r] = await eslint.lintText(readFileSync(path, 'utf8') + '\\n' + extra + '\\n', { filePath: path });
  out[name] = r.messages.map((m) => m.ruleId);
}
process.stdout.write(JSON.stringify(out));`;

describe('the import graph, as lint enforces it', () => {
  let rules: Record<keyof typeof PROBES, string[]>;
  beforeAll(() => {
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', LINT_PROBES], { cwd: ROOT, input: JSON.stringify(PROBES), encoding: 'utf8' });
    if (run.status !== 0) throw new Error(run.stderr);
    rules = JSON.parse(run.stdout) as typeof rules;
  }, 120_000);

  it('refuses a package importing one above it', () => {
    expect(rules.upward).toContain('no-restricted-imports');
    expect(rules.upwardFromDb).toContain('no-restricted-imports');
  });

  it("refuses a path into another package's files", () => {
    expect(rules.intoFiles).toContain('no-restricted-imports');
  });

  it('refuses an operation or a page importing a query, and allows a type', () => {
    expect(rules.operationQuery).toContain('@typescript-eslint/no-restricted-imports');
    expect(rules.pageQuery).toContain('@typescript-eslint/no-restricted-imports');
    expect(rules.operationType).not.toContain('@typescript-eslint/no-restricted-imports');
  });

  it('lets a package import what lies below it', () => {
    expect(rules.downward).not.toContain('no-restricted-imports');
  });

  it('refuses production code importing what tests share', () => {
    expect(rules.shipsTestSupport).toContain('no-restricted-imports');
  });

  it("refuses a test importing another package's test folder, and lets it import the same from @frontdesk/dev-env", () => {
    expect(rules.intoTestFolder).toContain('no-restricted-imports');
    expect(rules.e2eIntoTestFolder).toContain('no-restricted-imports');
    expect(rules.throughDevEnv).not.toContain('no-restricted-imports');
  });
});
