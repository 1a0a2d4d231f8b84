import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { flatten, type Env } from './env';
import { readDataDir } from './database';

/**
 * For the one-command local run (`pnpm start`, `pnpm cli`): the environment as given when it
 * names a key-encryption key (or its file); otherwise with a key made once in the local data
 * folder (mode 0600) and reused after. A deployed service never does this: it refuses to
 * start without a key of its own.
 */
export function withLocalKeyEncryptionKey(env: Env, projectRoot: string): Env {
  if (env.KEY_ENCRYPTION_KEY || env.KEY_ENCRYPTION_KEY_FILE) return env;
  const file = resolve(readDataDir(flatten(env), projectRoot), 'key-encryption-key');
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    try {
      writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (err) {
      // Another process starting at the same moment wrote it first: use theirs.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  chmodSync(file, 0o600);
  return { ...env, KEY_ENCRYPTION_KEY: readFileSync(file, 'utf8').trim() };
}

/**
 * The environment with DATABASE_URL as the local run chose it (a URL that already carries
 * its password), so the hosts' own config readers read that database.
 */
export const withDatabaseUrl = (env: Env, url: string): Env => ({
  ...env,
  DATABASE_URL: url,
  DATABASE_URL_FILE: undefined,
  DATABASE_PASSWORD: undefined,
  DATABASE_PASSWORD_FILE: undefined,
});
