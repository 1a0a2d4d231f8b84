import { BOOKING_OPERATIONS, PRO_DESK_OPERATIONS } from '@frontdesk/dev-env/pro-desk';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { formattedReference } from '../scripts/reference';
import { formattedConfiguration } from '../scripts/configuration';
import {
  BOOK_HOST_FEE_CENTS,
  CHECK_IN_MINUTES,
  DASHBOARD_SESSION_HOURS,
  DEFAULT_PRICE_LIST,
  DEFAULT_WEEKLY_HOURS,
  FREE_CANCEL_HOURS,
  RELINK_MAIL_MINUTES,
  HOLD_MINUTES,
  IDEMPOTENCY_KEEP_HOURS,
  JOBS_TODAY_AT,
  MAX_CREWS,
  MAX_WEBHOOKS,
  RECENT_WINDOW_DAYS,
  SHOWN_ONCE_MINUTES,
  SIGN_IN_CODE_MINUTES,
  SIGN_IN_MAX_ATTEMPTS,
  SIGN_IN_MAX_CODES_PER_HOUR,
  UPDATES_PAGE_SIZE,
  WEBHOOK_FAILING_AFTER,
} from '@frontdesk/domain';
import { IDEMPOTENCY_LEASE_MARGIN_MS, MAX_INPUT_DEPTH } from '@frontdesk/http';
import { ACCESS_TOKEN_SECONDS, CODE_SECONDS, MAX_CONCURRENT_FETCHES, REFRESH_DAYS } from '@frontdesk/oauth';
import {
  DEFAULT_REQUEST_DEADLINE_MS,
  RATE_LIMIT_VARIABLES,
  SETTINGS,
  flatten,
  readDevDatabase,
  settingNames,
  withLocalKeyEncryptionKey,
  type Env,
  type FlatEnv,
  type RateLimitName,
  type Setting,
  type SettingReader,
} from '@frontdesk/config';
import { DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_STATEMENT_TIMEOUT_MS } from '@frontdesk/db';
import { migrateConfigFrom, proDeskConfigFrom, readProDeskConfig } from '@frontdesk/pro-desk';
import { bookingConfigFrom, readBookingConfig } from '@frontdesk/booking';

const ROOT = resolve(__dirname, '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

// docs/operations.md is generated from the operation registries: a change to an operation
// that is not followed by `pnpm reference` fails here, so the reference never goes stale.
describe('docs/operations.md', () => {
  const path = join(__dirname, '..', 'docs', 'operations.md');

  it('is what the operation registries generate now', () => {
    expect(readFileSync(path, 'utf8')).toBe(formattedReference(path));
  });

  it('names every operation of both hosts', () => {
    const text = readFileSync(path, 'utf8');
    const named = [...text.matchAll(/^### (\w+)$/gm)].map((m) => m[1]);
    expect(named.sort()).toEqual([...PRO_DESK_OPERATIONS, ...BOOKING_OPERATIONS].sort());
    expect(named).toEqual(expect.arrayContaining(['book_job', 'log_lead', 'find_cleaners', 'book_cleaning', 'cancel_booking', 'pipeline']));
  });
});

// docs/configuration.md is generated from the settings catalogue, and the catalogue is held to
// what the readers do: each reader runs with an environment that writes down every name it is
// asked for, so a variable read but not listed (or listed but never read) fails here.
describe('docs/configuration.md', () => {
  const path = join(ROOT, 'docs', 'configuration.md');
  const REQUIRED = { DATABASE_URL: 'postgres://fd:pw@db:5432/frontdesk', KEY_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64') };

  /** `values` behind a Proxy that records each name read. */
  function recording(values: Record<string, string | undefined>): { env: Env; read: Set<string> } {
    const read = new Set<string>();
    const env = new Proxy(values, {
      get(target, name) {
        if (typeof name === 'string') read.add(name);
        return typeof name === 'string' ? target[name] : undefined;
      },
    });
    return { env, read };
  }

  /** The names a host reads: its flattening step (the secrets and their files) and its typed step. */
  function hostReads(typed: Array<(flat: FlatEnv) => unknown>): Set<string> {
    const raw = recording(REQUIRED);
    flatten(raw.env);
    const flat = recording({ ...flatten(REQUIRED) });
    for (const read of typed) read(flat.env as FlatEnv);
    return new Set([...raw.read, ...flat.read]);
  }

  /** The names the local run's own reader adds (`pnpm start`, `pnpm cli`): its key made once, its database. */
  function localReads(): Set<string> {
    const dataDir = mkdtempSync(join(tmpdir(), 'fd-config-'));
    try {
      const raw = recording({ FRONT_DESK_DATA_DIR: dataDir });
      withLocalKeyEncryptionKey(raw.env, ROOT);
      const flat = recording({});
      readDevDatabase(flat.env as FlatEnv, ROOT);
      return new Set([...raw.read, ...flat.read]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }

  const reads: Record<SettingReader, Set<string>> = {
    'pro-desk': hostReads([proDeskConfigFrom, migrateConfigFrom]),
    booking: hostReads([bookingConfigFrom]),
    local: localReads(),
  };
  const namesOf = (settings: readonly Setting[]) => settings.flatMap((s) => (s.file ? [s.name, `${s.name}_FILE`] : [s.name])).sort();
  const sorted = (names: Iterable<string>) => [...names].sort();

  it('is what the settings catalogue generates now', () => {
    expect(readFileSync(path, 'utf8')).toBe(formattedConfiguration(path));
  });

  it('lists exactly the variables the readers read, the secrets read from files included', () => {
    expect(sorted(new Set(Object.values(reads).flatMap((r) => [...r])))).toEqual(sorted(settingNames()));
  });

  it.each(['pro-desk', 'booking'] as const)('says which variables the %s host reads, and only those', (host) => {
    expect(namesOf(SETTINGS.filter((s) => s.readBy.includes(host)))).toEqual(sorted(reads[host]));
  });

  it('says which variables the local run reads', () => {
    for (const name of namesOf(SETTINGS.filter((s) => s.readBy.includes('local')))) expect([name, reads.local.has(name)]).toEqual([name, true]);
  });

  it('states the defaults the readers give when only the required settings are there', () => {
    const pro = readProDeskConfig(REQUIRED);
    const book = readBookingConfig(REQUIRED);
    const dev = readDevDatabase(flatten({}), ROOT);
    const given: Record<string, unknown> = {
      PRO_DESK_PORT: pro.port,
      BOOKING_PORT: book.port,
      EMBEDDED_PG_PORT: dev.embeddedPort,
      DATABASE_CONNECT_TIMEOUT_MS: pro.database.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      DATABASE_STATEMENT_TIMEOUT_MS: pro.database.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
      REQUEST_DEADLINE_MS: pro.requestDeadlineMs,
      MIGRATE_ON_START: pro.migrateOnStart,
      PUBLIC_SHARED_KEY: book.publicSharedKey,
      PUBLIC_CLIENT_ID: book.publicClientId,
      TRUST_PROXY: pro.trustProxy,
      MAIL_FROM: pro.mail.from,
      FRONT_DESK_LOCAL_MAIL: pro.mail.printLocally,
      LOG_LEVEL: pro.logLevel,
      FRONT_DESK_CHECK_ANSWERS: pro.checkAnswers,
      ...Object.fromEntries(Object.entries(RATE_LIMIT_VARIABLES).map(([name, v]) => [v.variable, pro.rateLimits[name as RateLimitName].limit])),
    };
    const stated = new Map(SETTINGS.map((s) => [s.name, s.default]));
    for (const [name, value] of Object.entries(given)) expect([name, stated.get(name)]).toEqual([name, expect.stringContaining(String(value))]);
    for (const origin of pro.mcpAllowedOrigins) expect(stated.get('MCP_ALLOWED_ORIGINS')).toContain(origin);
    expect(stated.get('DATABASE_URL')).toMatch(/required/);
    expect(() => readProDeskConfig({})).toThrow(/^DATABASE_URL /);
    expect(() => readBookingConfig({ DATABASE_URL: REQUIRED.DATABASE_URL })).toThrow(/^KEY_ENCRYPTION_KEY /);
  });
});

// README is the first five minutes: short, and what it says beside the two commands is true.
describe('README.md', () => {
  const readme = read('README.md');
  const commands = readme.slice(readme.indexOf('## The two commands'), readme.indexOf('## Your first hour'));
  const prose = readme.replace(/\s+/g, ' ');

  it('reads in five minutes: at most 150 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(150);
  });

  it('keeps the two commands CI runs after a clean install', () => {
    expect(commands).toContain('npm install -g pnpm@10 && pnpm install && pnpm start');
    expect(commands).toMatch(/^pnpm test\b/m);
    expect(read('.ci/run')).toMatch(/^pnpm test$/m);
  });

  it('says how to run on other ports next to the two commands', () => {
    for (const name of ['PRO_DESK_PORT', 'BOOKING_PORT', 'EMBEDDED_PG_PORT']) expect(commands).toContain(name);
    expect(commands).toMatch(/8080[\s\S]*8081[\s\S]*54329/);
  });

  it("gives a new business's default prices as the default price list has them, the pets fee included", () => {
    const usd = (cents: number) => String(cents / 100);
    const p = DEFAULT_PRICE_LIST;
    const said = `(${usd(p.base_cents)} USD base, ${usd(p.per_bedroom_cents)} per bedroom, ${usd(p.per_bathroom_cents)} per bathroom, ${usd(p.pets_fee_cents)} for pets, ${usd(p.minimum_cents)} minimum)`;
    expect(prose).toContain(`default price list ${said}`);
  });

  it("gives a new business's default hours as the defaults have them", () => {
    const h = DEFAULT_WEEKLY_HOURS;
    const hour = (t: string) => String(Number(t.slice(0, 2)) % 12 || 12);
    const weekday = h['1']![0]!;
    for (const day of ['1', '2', '3', '4', '5'] as const) expect(h[day]).toEqual([weekday]);
    expect(h['7']).toBeUndefined();
    const saturday = h['6']![0]!;
    expect(prose).toContain(`(Monday to Friday ${hour(weekday.start)} to ${hour(weekday.end)}, Saturday ${hour(saturday.start)} to ${hour(saturday.end)})`);
  });
});

// Every document a reader follows: links land, and the names it gives (files, scripts,
// variables, operations and fields) are names the code has. Counts are left out of the prose
// or checked here.
describe('the documents', () => {
  const docs = [
    'README.md',
    'ARCHITECTURE.md',
    'bench/README.md',
    ...readdirSync(join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  const withoutCode = (text: string) => text.replace(/^```[\s\S]*?^```/gm, '');
  const spans = (text: string) => [...withoutCode(text).matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);

  /** GitHub's anchor for a heading. */
  const slug = (heading: string) =>
    heading
      .trim()
      .toLowerCase()
      .replace(/[`*]/g, '')
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
  const anchors = (path: string) => new Set([...read(path).matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!)));

  /** The repository's own source, to look names up in. */
  const source = (() => {
    const texts: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.(ts|mjs|json|yml)$/.test(name)) texts.push(readFileSync(path, 'utf8'));
      }
    };
    for (const dir of ['packages', 'services', 'scripts', 'bench', 'jest', 'test-e2e', 'docs']) walk(join(ROOT, dir));
    texts.push(read('docker-compose.yml'), read('package.json'));
    return texts.join('\n');
  })();
  const inSource = (name: string) => new RegExp(`(^|[^A-Za-z0-9_])${name}($|[^A-Za-z0-9_])`).test(source);

  it.each(docs)('%s: every relative link reaches a file, and its anchor a heading there', (doc) => {
    const links = [...withoutCode(read(doc)).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((l) => !/^[a-z]+:/.test(l));
    for (const link of links) {
      const [file, anchor] = link.split('#');
      const target = file ? relative(ROOT, resolve(ROOT, dirname(doc), file)) : doc;
      expect([link, existsSync(join(ROOT, target))]).toEqual([link, true]);
      if (anchor) expect([link, anchors(target).has(anchor)]).toEqual([link, true]);
    }
  });

  it.each(docs)('%s: every file of the repository it names is there', (doc) => {
    const generated = /(^|\/)(dist|results|secrets)\/|^\.data\//;
    const paths = spans(read(doc)).filter((s) => /^(packages|services|scripts|docs|test-e2e|infra|jest|bench)\/[\w./-]+$/.test(s) && !generated.test(s));
    for (const path of paths) expect([path, existsSync(join(ROOT, path))]).toEqual([path, true]);
  });

  it.each(docs)('%s: every pnpm script it names is one of the root package', (doc) => {
    const scripts = Object.keys((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts);
    const builtIn = ['install', 'exec', '--filter', '-s'];
    const code = [...spans(read(doc)), ...[...read(doc).matchAll(/^```[\s\S]*?^```/gm)].map((m) => m[0])].join('\n');
    for (const m of code.matchAll(/\bpnpm ([\w:-]+)/g)) expect([m[0], [...scripts, ...builtIn].includes(m[1]!)]).toEqual([m[0], true]);
  });

  it.each(docs)('%s: every variable, operation and field it names is one the code has', (doc) => {
    const text = read(doc);
    const variables = [...text.matchAll(/\b([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\b/g)].map((m) => m[1]!);
    const snake = spans(text).filter((s) => /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/.test(s));
    const settings = new Set(settingNames());
    for (const name of new Set(variables)) expect([name, settings.has(name) || inSource(name)]).toEqual([name, true]);
    for (const name of new Set(snake)) expect([name, inSource(name)]).toEqual([name, true]);
  });

  // Each figure a guide states about behaviour, beside the constant the code keeps it in.
  it.each([
    [
      'docs/accounts.md',
      `valid for ${SIGN_IN_CODE_MINUTES} minutes, used once, with ${SIGN_IN_MAX_ATTEMPTS} tries, and at most ${SIGN_IN_MAX_CODES_PER_HOUR} codes an hour`,
    ],
    ['docs/accounts.md', `valid for ${ACCESS_TOKEN_SECONDS / 3600} hour`],
    ['docs/accounts.md', `Refresh tokens last ${REFRESH_DAYS} days`],
    ['docs/accounts.md', `Codes last ${CODE_SECONDS} seconds`],
    ['docs/pages.md', `a session lasts ${DASHBOARD_SESSION_HOURS} hours`],
    ['docs/pages.md', `for ${SHOWN_ONCE_MINUTES} minutes`],
    ['docs/pages.md', `after ${SHOWN_ONCE_MINUTES} minutes`],
    ['docs/pages.md', `within ${FREE_CANCEL_HOURS} hours of the start`],
    ['docs/pages.md', `holds it for this browser for ${HOLD_MINUTES.book.default} minutes`],
    ['docs/walkthrough.md', `within ${FREE_CANCEL_HOURS} hours of the old start`],
    ['docs/api.md', `within ${IDEMPOTENCY_KEEP_HOURS} hours`],
    ['docs/api.md', `purged after ${IDEMPOTENCY_KEEP_HOURS} hours`],
    ['docs/mcp.md', `lasts ${HOLD_MINUTES.book.min} to ${HOLD_MINUTES.book.max} minutes (\`minutes\`, default ${HOLD_MINUTES.book.default})`],
    ['docs/mcp.md', `${HOLD_MINUTES.pro.min} to ${HOLD_MINUTES.pro.max} minutes (${HOLD_MINUTES.pro.max / 60} hours, default ${HOLD_MINUTES.pro.default})`],
    ['docs/security.md', `deeper than ${MAX_INPUT_DEPTH} levels`],
    ['docs/security.md', `at most ${MAX_CONCURRENT_FETCHES} documents at once`],
    [
      'docs/running.md',
      `the deadline plus ${IDEMPOTENCY_LEASE_MARGIN_MS / 1000} seconds (${(DEFAULT_REQUEST_DEADLINE_MS + IDEMPOTENCY_LEASE_MARGIN_MS) / 1000} seconds by default)`,
    ],
    ['docs/webhooks.md', `At most ${MAX_WEBHOOKS} per business`],
    ['docs/webhooks.md', `After ${WEBHOOK_FAILING_AFTER} failures in a row`],
    ['docs/design.md', `1 to ${MAX_CREWS} crews`],
    ['docs/design.md', `Pages hold ${UPDATES_PAGE_SIZE} events; without \`since\` the last ${RECENT_WINDOW_DAYS} days`],
    [
      'docs/design.md',
      `\`next_check_in_minutes\` is ${CHECK_IN_MINUTES.more} while more is waiting, ${CHECK_IN_MINUTES.working} during working hours, ${CHECK_IN_MINUTES.offHours} outside them`,
    ],
    ['docs/design.md', `today's jobs from ${JOBS_TODAY_AT} local`],
    ['docs/design.md', `${BOOK_HOST_FEE_CENTS / 100} USD per customer booking`],
    ['docs/design.md', `less than ${FREE_CANCEL_HOURS} h ahead`],
    ['docs/turnovers.md', `a clean starting within ${FREE_CANCEL_HOURS} hours of the stop`],
    ['docs/turnovers.md', `at most once in ${RELINK_MAIL_MINUTES} minutes`],
    ['docs/turnovers.md', `one ${BOOK_HOST_FEE_CENTS / 100} USD fee, carried by its earliest booked clean`],
    ['docs/design.md', `holds its key for the request deadline plus ${IDEMPOTENCY_LEASE_MARGIN_MS / 1000} seconds`],
  ])('%s says "%s", as the code has it', (doc, said) => {
    expect(read(doc).replace(/\s+/g, ' ')).toContain(said);
  });

  it('exist wherever the lint rules cite them', () => {
    for (const config of ['eslint.architecture.mjs', 'eslint.config.mjs']) {
      for (const [doc] of read(config).matchAll(/\b[\w/-]+\.md\b/g)) expect([config, doc, existsSync(join(ROOT, doc))]).toEqual([config, doc, true]);
    }
  });

  it('states the size rules ARCHITECTURE.md gives as lint holds them', () => {
    const lint = read('eslint.architecture.mjs');
    const lines = /'max-lines-per-function': \['error', \{ max: (\d+)/.exec(lint)![1];
    const params = /'max-params': \['error', (\d+)\]/.exec(lint)![1];
    const said = read('ARCHITECTURE.md').replace(/\s+/g, ' ');
    expect(said).toContain(`at most ${lines} lines`);
    expect(said).toContain(`at most ${params} parameters`);
  });
});
