import { readFileSync } from 'node:fs';

/** The environment as a process gets it (or as a test or script builds it). */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * Step two of three: the environment as flat values. An empty variable counts as unset,
 * a secret may come from the file `<NAME>_FILE` names, and DATABASE_PASSWORD is already
 * inside DATABASE_URL. The typed readers take this, never `process.env`.
 */
export type FlatEnv = Readonly<Record<string, string | undefined>> & { readonly __flat: true };

/**
 * A setting that cannot be used. The message always begins with the variable's name, so
 * whoever reads the refusal at start knows which line of their environment to fix.
 */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    rest: string,
  ) {
    super(`${variable} ${rest}`);
  }
}

/**
 * Secrets compose (or any orchestrator) can hand over as files (`secrets:` mounts them under
 * /run/secrets): `<NAME>_FILE` names the file and its contents, trimmed, are the value.
 */
export const FILE_SECRETS = [
  'KEY_ENCRYPTION_KEY',
  'KEY_ENCRYPTION_KEY_PREVIOUS',
  'DATABASE_URL',
  'DATABASE_READ_URL',
  'DATABASE_PASSWORD',
  'SMTP_URL',
  'METRICS_TOKEN',
] as const;

const given = (value: string | undefined): string | undefined => (value === undefined || value === '' ? undefined : value);

function fromFile(name: string, path: string): string {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch (err) {
    throw new ConfigError(`${name}_FILE`, `names a file that cannot be read (${path}: ${(err as NodeJS.ErrnoException).code ?? 'unreadable'}).`);
  }
}

function secret(env: Env, name: string): string | undefined {
  const value = given(env[name]);
  const file = given(env[`${name}_FILE`]);
  if (value !== undefined && file !== undefined) {
    throw new ConfigError(name, `and ${name}_FILE are both set: set the value or the file that holds it, not both.`);
  }
  return file === undefined ? value : given(fromFile(name, file));
}

/**
 * DATABASE_PASSWORD replaces the password in DATABASE_URL, so the password can live in one
 * secret that the database server's own image reads too (POSTGRES_PASSWORD_FILE).
 */
function withPassword(url: string | undefined, password: string | undefined): string | undefined {
  if (password === undefined) return url;
  if (url === undefined) {
    throw new ConfigError('DATABASE_PASSWORD', 'is set, but DATABASE_URL is not: set DATABASE_URL to the server the password is for.');
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError('DATABASE_URL', 'is not a valid URL; expected postgres://user:pass@host:5432/dbname.');
  }
  parsed.password = encodeURIComponent(password);
  return parsed.toString();
}

/** Step one to two: the environment as flat values (see FlatEnv). */
export function flatten(env: Env): FlatEnv {
  const flat: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(env)) flat[name] = given(value);
  for (const name of FILE_SECRETS) {
    flat[name] = secret(env, name);
    delete flat[`${name}_FILE`];
  }
  flat.DATABASE_URL = withPassword(flat.DATABASE_URL, flat.DATABASE_PASSWORD);
  delete flat.DATABASE_PASSWORD;
  return flat as FlatEnv;
}
