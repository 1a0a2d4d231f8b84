import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

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

export class KeySealer {
  private readonly keys: { id: Buffer; key: Buffer }[];

  /** `current` seals; `previous` (during a rotation of the key-encryption key) only opens. */
  constructor(current: Buffer, previous: Buffer[] = []) {
    this.keys = [current, ...previous].map((key) => ({ id: idOf(key), key }));
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
 * The sealer of a deployed service: KEY_ENCRYPTION_KEY is required (the service refuses to
 * start without it), KEY_ENCRYPTION_KEY_PREVIOUS optional.
 */
export function readKeySealer(env: NodeJS.ProcessEnv = process.env): KeySealer {
  const raw = env[KEY_VARIABLE];
  if (!raw) {
    throw new Error(
      `${KEY_VARIABLE} must be set: it seals the OAuth signing keys stored in the database. Make one with: openssl rand -base64 32 (keep it out of the database and its backups).`,
    );
  }
  const previous = env[PREVIOUS_KEY_VARIABLE] ? [parseKeyEncryptionKey(env[PREVIOUS_KEY_VARIABLE], PREVIOUS_KEY_VARIABLE)] : [];
  return new KeySealer(parseKeyEncryptionKey(raw), previous);
}

/**
 * For the one-command local run (`pnpm start`, `pnpm cli`): KEY_ENCRYPTION_KEY when set;
 * otherwise a key made once in the local data folder (mode 0600) and reused after.
 * Returns the environment with the variable filled in.
 */
export function withLocalKeyEncryptionKey(env: NodeJS.ProcessEnv, projectRoot: string): NodeJS.ProcessEnv {
  if (env[KEY_VARIABLE]) return env;
  const file = resolve(env.FRONT_DESK_DATA_DIR || resolve(projectRoot, '.data'), 'key-encryption-key');
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
  return { ...env, [KEY_VARIABLE]: readFileSync(file, 'utf8').trim() };
}
