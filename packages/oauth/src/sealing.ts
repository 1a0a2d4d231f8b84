import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Private signing keys are stored sealed (AES-256-GCM) with a key-encryption key that lives
 * in the environment, never in the database: a copy of the database alone cannot sign a token.
 *
 * A sealed value is: version (1 byte) | the key's id (8 bytes) | IV (12) | tag (16) | ciphertext.
 * The row's kid is the associated data, so a sealed key cannot be moved to another row.
 */
const VERSION = 1;
const ID_BYTES = 8;

export const KEY_VARIABLE = 'KEY_ENCRYPTION_KEY';
export const PREVIOUS_KEY_VARIABLE = 'KEY_ENCRYPTION_KEY_PREVIOUS';

const idOf = (key: Buffer) => createHash('sha256').update(key).digest().subarray(0, ID_BYTES);

/** 32 bytes, written as base64, base64url or 64 hex digits. */
export function parseKeyEncryptionKey(raw: string, name = KEY_VARIABLE): Buffer {
  const text = raw.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : /^[A-Za-z0-9+/_-]{43}=?$/.test(text) ? Buffer.from(text, 'base64') : null;
  if (!key || key.length !== 32) {
    throw new Error(`${name} must be 32 random bytes as base64 or 64 hex digits; make one with: openssl rand -base64 32`);
  }
  return key;
}

/** What the keys for stored HMACs are derived for (HKDF's info): a new purpose gets a new name. */
const HASH_KEY_INFO = 'front-desk stored-secret hmac v1';

export class KeySealer {
  private readonly keys: { id: Buffer; key: Buffer }[];
  /**
   * The keys short secrets are stored under as HMACs (sign-in codes, pending authorization
   * ids), derived from the key-encryption keys by HKDF-SHA256 (never the keys themselves): the
   * current one first, then the previous one's, so a rotation refuses nothing in flight.
   */
  readonly hashKeys: readonly Buffer[];

  /** `current` seals; `previous` (during a rotation of the key-encryption key) only opens. */
  constructor(current: Buffer, previous: Buffer[] = []) {
    this.keys = [current, ...previous].map((key) => ({ id: idOf(key), key }));
    this.hashKeys = this.keys.map(({ key }) => Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), HASH_KEY_INFO, 32)));
  }

  seal(plain: Buffer, kid: string): Buffer {
    const { id, key } = this.keys[0]!;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(kid));
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    return Buffer.concat([Buffer.from([VERSION]), id, iv, cipher.getAuthTag(), body]);
  }

  open(sealed: Buffer, kid: string): Buffer {
    if (sealed[0] !== VERSION) throw new Error(`Signing key ${kid} is sealed in a format this version does not read.`);
    const id = sealed.subarray(1, 1 + ID_BYTES);
    const found = this.keys.find((k) => k.id.equals(id));
    if (!found) {
      throw new Error(
        `Signing key ${kid} was sealed with a ${KEY_VARIABLE} this service does not have: set the key it was sealed with as ${KEY_VARIABLE} (or, while rotating, as ${PREVIOUS_KEY_VARIABLE}).`,
      );
    }
    const iv = sealed.subarray(1 + ID_BYTES, 13 + ID_BYTES);
    const tag = sealed.subarray(13 + ID_BYTES, 29 + ID_BYTES);
    const decipher = createDecipheriv('aes-256-gcm', found.key, iv).setAAD(Buffer.from(kid)).setAuthTag(tag);
    return Buffer.concat([decipher.update(sealed.subarray(29 + ID_BYTES)), decipher.final()]);
  }
}

/**
 * The sealer of a deployed service, from the key-encryption keys as its config read them
 * (KEY_ENCRYPTION_KEY, and KEY_ENCRYPTION_KEY_PREVIOUS during a rotation). A key that is not
 * 32 bytes is refused here, at start, naming its variable.
 */
export function keySealerFrom(keys: { current: string; previous?: string }): KeySealer {
  const previous = keys.previous ? [parseKeyEncryptionKey(keys.previous, PREVIOUS_KEY_VARIABLE)] : [];
  return new KeySealer(parseKeyEncryptionKey(keys.current), previous);
}
