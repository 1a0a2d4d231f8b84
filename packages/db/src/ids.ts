import { createHash, randomBytes } from 'node:crypto';
import { customAlphabet } from 'nanoid';

// Lower-case letters and digits read well aloud and survive any copy and paste.
const readable = customAlphabet('0123456789abcdefghijklmnopqrstuvwxyz', 14);
// Keys: 62 symbols x 32 = about 190 bits of randomness.
const keyBody = customAlphabet('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', 32);

export type IdPrefix = 'pro' | 'lead' | 'bk' | 'key' | 'off' | 'ntf' | 'chk' | 'sic' | 'msg' | 'sr';

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${readable()}`;
}

/** A secret to show once: `fdk_` pro keys, `fdp_` personal keys. */
export function newKey(prefix: 'fdk' | 'fdp'): string {
  return `${prefix}_${keyBody()}`;
}

/** A manage token: 32 random bytes (256 bits), URL-safe. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Secrets are stored only as SHA-256 hashes. They are long random strings, not passwords,
 * so a fast hash is safe and lets a lookup use the unique index.
 */
export function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}
