import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
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
 * Hands out a new secret: `store` keeps its hash and hint (never the secret itself), and the
 * secret is returned, the one time anyone sees it.
 */
export async function issueSecret(secret: string, store: (hash: Buffer, hint: string) => Promise<unknown>): Promise<string> {
  await store(hashSecret(secret), secretHint(secret));
  return secret;
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

/**
 * Keys for the HMACs below, derived from the key-encryption key (which never enters the
 * database): the current one first, then those of a key-encryption-key rotation.
 */
export type HashKeys = readonly Buffer[];

const hmac = (key: Buffer, text: string) => createHmac('sha256', key).update(text, 'utf8').digest();

/**
 * A sign-in code has a million values, so a plain hash of it (even salted with its row id,
 * which sits in the same row) gives it back from a copy of the database in a second. It is
 * stored as an HMAC under a server key instead: without the key the hash says nothing.
 */
export const signInCodeHash = (keys: HashKeys, id: string, code: string) => hmac(keys[0]!, `${id}:${code}`);

/** Whether a code matches the stored HMAC under any of the keys, in constant time. */
export const signInCodeMatches = (keys: HashKeys, id: string, code: string, stored: Buffer) =>
  keys.some((key) => {
    const mac = hmac(key, `${id}:${code}`);
    return mac.length === stored.length && timingSafeEqual(mac, stored);
  });

/**
 * A pending authorization's id is the browser's capability to finish it: stored only as an
 * HMAC under a server key (base64url), never in the clear. A lookup tries every key.
 */
export const requestIdHashes = (keys: HashKeys, id: string) => keys.map((key) => `azh_${hmac(key, id).toString('base64url')}`);

/**
 * A host-requested property's manage token: derived from its id under a server key (so a mail
 * about its cleans can carry the link again, and a copy of the database cannot make it), and
 * stored, like every token, only as its hash. One token per key, the current key's first.
 */
export const propertyManageTokens = (keys: HashKeys, propertyId: string) => keys.map((key) => hmac(key, `property-manage:${propertyId}`).toString('base64url'));

/** A webhook signing secret in Standard Webhooks' form: `whsec_` and 32 random bytes in base64. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** Seals and opens a secret the service must use again (not only compare): a webhook's. */
export interface Sealer {
  seal(plain: Buffer, kid: string): Buffer;
  open(sealed: Buffer, kid: string): Buffer;
}
