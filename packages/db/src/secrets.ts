import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { customAlphabet } from 'nanoid';

/**
 * Every secret the service hands out (keys, manage tokens, session and feed tokens, OAuth
 * codes and refresh tokens, sign-in codes) is minted and hashed here, and only the repos
 * call this module: a secret enters the database package as text and is stored as a hash,
 * so no other layer can store one in the clear, and none hashes one its own way.
 */

// Keys: 62 symbols x 32 = about 190 bits of randomness.
const keyBody = customAlphabet('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', 32);

/** A secret to show once: `fdk_` pro keys, `fdp_` personal keys. */
export function newKey(prefix: 'fdk' | 'fdp'): string {
  return `${prefix}_${keyBody()}`;
}

/** A token (manage link, session, calendar feed, OAuth code): 32 random bytes (256 bits), URL-safe. */
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

/** The last characters of a secret, kept so a page can say which one is live. */
export const secretHint = (secret: string) => secret.slice(-4);

/** A six-digit sign-in code. */
export const newSignInCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

/** A sign-in code is short, so its hash is salted with its row id. */
export const signInCodeHash = (id: string, code: string) => createHash('sha256').update(`${id}:${code}`).digest();

/** Whether a code matches the stored hash, in constant time. */
export const signInCodeMatches = (id: string, code: string, stored: Buffer) => timingSafeEqual(signInCodeHash(id, code), stored);
