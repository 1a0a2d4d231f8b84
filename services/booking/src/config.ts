import { flatten, readHostAddresses, readHostSettings, readText, type Env, type FlatEnv, type HostAddresses, type HostSettings } from '@frontdesk/config';
import { RATE_LIMIT_DEFAULTS } from '@frontdesk/http';
import { keySealerFrom, type KeySealer } from '@frontdesk/oauth';

/**
 * Every setting of the booking host, read at start. Config in steps: the environment, then
 * flat values (secrets from their files), then this typed config with its defaults; every
 * refusal names its variable. Nothing else in the host reads the environment.
 */
export interface BookingConfig extends Omit<HostSettings, 'keyEncryptionKeys'>, Omit<HostAddresses, 'otherUrl'> {
  /** PRO_DESK_URL: links to the businesses' host. */
  proDeskUrl: string;
  /** PUBLIC_SHARED_KEY: the key assistants send when the user has no account of their own. */
  publicSharedKey: string;
  /** Seals the OAuth signing keys at rest (KEY_ENCRYPTION_KEY, KEY_ENCRYPTION_KEY_PREVIOUS). */
  keySealer: KeySealer;
}

export const DEFAULT_PUBLIC_SHARED_KEY = 'fdpub_local_shared_key';

export const readBookingConfig = (env: Env = process.env): BookingConfig => bookingConfigFrom(flatten(env));

/** The typed step alone, from flat values (docs/configuration.md's test records what it reads). */
export function bookingConfigFrom(flat: FlatEnv): BookingConfig {
  const { port, publicUrl, otherUrl: proDeskUrl } = readHostAddresses(flat, 'booking');
  const { keyEncryptionKeys, ...host } = readHostSettings(flat, RATE_LIMIT_DEFAULTS);
  const publicSharedKey = readText(flat, 'PUBLIC_SHARED_KEY', {
    fallback: DEFAULT_PUBLIC_SHARED_KEY,
    pattern: /^[A-Za-z0-9_.-]{12,100}$/,
    shape: '12 to 100 letters, digits, dots, dashes or underscores',
  });
  return { port, publicUrl, proDeskUrl, publicSharedKey, ...host, keySealer: keySealerFrom(keyEncryptionKeys) };
}
