import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * The database package holds tables, migrations, connections, provisioning and queries:
 * nothing a pro or customer reads, and no business constant. Refusals are domain errors
 * built by the domain's words; the db package may only throw plain errors, which the HTTP
 * layer turns into a generic 500 that shows none of their text.
 */
const SRC = join(__dirname, '..', 'src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'migrations' ? [] : sources(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** Constants the db package may define: they tune storage and connections, not the business. */
const OPERATIONAL_CONSTANTS = new Set([
  'BOOKING_STATUSES', // the status column's values
  'MAX_CACHED_PROFILES', // a cache bound
  'CHANGES_CHANNEL', // the change triggers' LISTEN channel
  'RETRY_MS', // how soon the change feed listens again
  'FENCE_TIMEOUT_MS', // how long a write waits to hear itself
  'CLIENT_CHECK_MS', // how often the server looks whether a running query's client is still there
  'DAY', // a unit
  'MAX_ATTEMPTS', // mail delivery retries
  'PURGE_EVERY_MS', // how often expired rows are deleted
  'DEFAULT_CONNECT_TIMEOUT_MS',
  'DEFAULT_STATEMENT_TIMEOUT_MS',
  'DEFAULT_MAX_REPLICA_LAG_MS', // how far behind a replica may be and still be read (DATABASE_READ_MAX_LAG_MS)
  'REPLICA_CONNECT_TIMEOUT_MS', // how long a replica gets to connect before the primary answers
  'UNAVAILABLE_CLASSES', // SQLSTATE classes that mean "the database is away"
  'UNAVAILABLE_CODES',
  'NETWORK_CODES',
  'CLIENT_MESSAGES', // pg's own texts for a dropped connection
]);

const USER_ERRORS = /\b(AppError|InvalidInputError|NotFoundError|TooManyRequestsError|ForbiddenError|UnauthorizedError)\b/;

describe('packages/db/src', () => {
  const files = sources(SRC).map((path) => ({ path: relative(SRC, path), text: readFileSync(path, 'utf8') }));

  it('has files to check', () => {
    expect(files.length).toBeGreaterThan(20);
  });

  it('raises no error a pro or customer reads: refusals come from the domain', () => {
    const offenders = files.filter((f) => USER_ERRORS.test(f.text)).map((f) => f.path);
    expect(offenders).toEqual([]);
  });

  it('writes no sentence into a message, subject or text field', () => {
    const sentence = /\b(message|subject|text|summary|reason_text)\s*:\s*[`'"][^`'"]*\s[^`'"]*[`'"]/;
    const offenders = files.filter((f) => sentence.test(f.text)).map((f) => f.path);
    expect(offenders).toEqual([]);
  });

  it('defines no business constant', () => {
    const defined = files.flatMap((f) => [...f.text.matchAll(/^(?:export )?const ([A-Z][A-Z_0-9]+) =/gm)].map((m) => `${f.path}: ${m[1]}`));
    const unexpected = defined.filter((d) => !OPERATIONAL_CONSTANTS.has(d.split(': ')[1]!));
    expect(unexpected).toEqual([]);
  });
});
