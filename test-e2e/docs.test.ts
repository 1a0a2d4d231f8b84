import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { formattedReference } from '../scripts/reference';
import { formattedConfiguration } from '../scripts/configuration';
import { DEFAULT_PRICE_LIST } from '@frontdesk/domain';
import {
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
    expect(named).toHaveLength(34);
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

// README's first minutes: what a newcomer needs beside the two commands is true and near them.
describe('README.md', () => {
  const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
  const commands = readme.slice(readme.indexOf('## The two commands'), readme.indexOf('## Your first hour'));

  it('says how to run on other ports next to the two commands', () => {
    for (const name of ['PRO_DESK_PORT', 'BOOKING_PORT', 'EMBEDDED_PG_PORT']) expect(commands).toContain(name);
    expect(commands).toMatch(/8080[\s\S]*8081[\s\S]*54329/);
  });

  it("gives a new business's default prices as the default price list has them, the pets fee included", () => {
    const usd = (cents: number) => String(cents / 100);
    const p = DEFAULT_PRICE_LIST;
    const said = `(${usd(p.base_cents)} USD base, ${usd(p.per_bedroom_cents)} per bedroom, ${usd(p.per_bathroom_cents)} per bathroom,\n   ${usd(p.pets_fee_cents)} for pets, ${usd(p.minimum_cents)} minimum)`;
    expect(readme).toContain(`You start with the default price list ${said}`);
  });
});
