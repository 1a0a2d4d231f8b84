import {
  flatten,
  readDatabaseUrl,
  readHostAddresses,
  readHostSettings,
  readMigrateOnStart,
  type Env,
  type FlatEnv,
  type HostAddresses,
  type HostSettings,
} from '@frontdesk/config';
import { RATE_LIMIT_DEFAULTS } from '@frontdesk/http';
import { keySealerFrom, type KeySealer } from '@frontdesk/oauth';

/**
 * Every setting of the pro-desk host, read at start. Config in steps: the environment, then
 * flat values (secrets from their files), then this typed config with its defaults; every
 * refusal names its variable. Nothing else in the host reads the environment.
 */
export interface ProDeskConfig extends Omit<HostSettings, 'keyEncryptionKeys'>, Omit<HostAddresses, 'otherUrl'> {
  /** BOOKING_URL: links to the customers' host. */
  bookingUrl: string;
  /** MIGRATE_ON_START. */
  migrateOnStart: boolean;
  /** Seals the OAuth signing keys at rest (KEY_ENCRYPTION_KEY, KEY_ENCRYPTION_KEY_PREVIOUS). */
  keySealer: KeySealer;
}

export const readProDeskConfig = (env: Env = process.env): ProDeskConfig => proDeskConfigFrom(flatten(env));

/** The typed step alone, from flat values (docs/configuration.md's test records what it reads). */
export function proDeskConfigFrom(flat: FlatEnv): ProDeskConfig {
  const { port, publicUrl, otherUrl: bookingUrl } = readHostAddresses(flat, 'pro-desk');
  const { keyEncryptionKeys, ...host } = readHostSettings(flat, RATE_LIMIT_DEFAULTS);
  return { port, publicUrl, bookingUrl, migrateOnStart: readMigrateOnStart(flat), ...host, keySealer: keySealerFrom(keyEncryptionKeys) };
}

/** What `dist/migrate.js` needs: the database, and nothing a running service needs besides. */
export const readMigrateConfig = (env: Env = process.env): { databaseUrl: string } => migrateConfigFrom(flatten(env));
export const migrateConfigFrom = (flat: FlatEnv): { databaseUrl: string } => ({ databaseUrl: readDatabaseUrl(flat) });
