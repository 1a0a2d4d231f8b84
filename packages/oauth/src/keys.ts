import { randomUUID } from 'node:crypto';
import { SignJWT, exportJWK, generateKeyPair, importJWK, jwtVerify, type CryptoKey, type JWK } from 'jose';
import { lockSigningKeys, replaceSigningKey, usableSigningKeys, type Db } from '@frontdesk/db';
import type { KeySealer } from './sealing';
import { isEmail } from '@frontdesk/domain';

/** Access tokens live an hour at most. */
export const ACCESS_TOKEN_SECONDS = 3600;
/** A retired key still verifies (and is published) until every token it signed expired. */
const RETIRED_KEY_GRACE_MS = 2 * ACCESS_TOKEN_SECONDS * 1000;
const RELOAD_MS = 60_000;
const ALG = 'ES256';

interface LoadedKey {
  kid: string;
  /** Only the active key needs its private half; retired ones only verify. */
  privateKey: CryptoKey | null;
  publicKey: CryptoKey;
  publicJwk: JWK;
  createdAt: Date;
}

/** Retires the active key and adds a new one, its private half sealed, inside the caller's transaction. */
async function replaceActiveKey(trx: Db, sealer: KeySealer, now: Date): Promise<string> {
  const { privateKey, publicKey } = await generateKeyPair(ALG, { extractable: true });
  const kid = randomUUID();
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: ALG };
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: ALG, use: 'sig' };
  await replaceSigningKey(trx, { kid, privateKeySealed: sealer.seal(Buffer.from(JSON.stringify(privateJwk)), kid), publicJwk }, now);
  return kid;
}

/**
 * Creates a new signing key; the newest active one signs, retired ones keep verifying. Also
 * how the key-encryption key is rotated: the new key is sealed with the current one.
 */
export async function rotateSigningKey(db: Db, sealer: KeySealer, now: Date): Promise<string> {
  return db.transaction().execute((trx) => replaceActiveKey(trx, sealer, now));
}

/**
 * The keys access tokens are signed and checked with, stored in the database so every
 * replica agrees and `pnpm cli oauth rotate-key` rotates them; reloaded every minute.
 */
export class SigningKeys {
  private keys: LoadedKey[] = [];
  private loadedAt = 0;
  private loading: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly sealer: KeySealer,
  ) {}

  private async load(): Promise<void> {
    const now = new Date();
    const since = new Date(now.getTime() - RETIRED_KEY_GRACE_MS);
    let rows = await usableSigningKeys(this.db, since);
    if (!rows.some((r) => r.retired_at === null)) {
      // First start: make a key. Replicas racing here may each add one; all stay valid.
      await this.db.transaction().execute(async (trx) => {
        if (!(await lockSigningKeys(trx))) await replaceActiveKey(trx, this.sealer, now);
      });
      rows = await usableSigningKeys(this.db, since);
    }
    this.keys = await Promise.all(
      rows.map(async (r) => ({
        kid: r.kid,
        privateKey:
          r.retired_at === null && r.private_key_sealed
            ? ((await importJWK(JSON.parse(this.sealer.open(r.private_key_sealed, r.kid).toString('utf8')) as JWK, ALG)) as CryptoKey)
            : null,
        publicKey: (await importJWK(r.public_jwk as JWK, ALG)) as CryptoKey,
        publicJwk: r.public_jwk,
        createdAt: r.created_at,
      })),
    );
    this.loadedAt = Date.now();
  }

  private async fresh(force = false): Promise<LoadedKey[]> {
    if (force || Date.now() - this.loadedAt > RELOAD_MS || this.keys.length === 0) {
      this.loading ??= this.load().finally(() => (this.loading = null));
      await this.loading;
    }
    return this.keys;
  }

  async jwks(): Promise<{ keys: JWK[] }> {
    return { keys: (await this.fresh()).map((k) => k.publicJwk) };
  }

  /** Signs an access token; `sid` names the sign-in (refresh family) so revoking it stops the token. */
  async sign(claims: { iss: string; aud: string; sub: string; scope: string; client_id: string; sid: string }, now: Date): Promise<string> {
    const key = (await this.fresh()).find((k) => k.privateKey !== null);
    if (!key) throw new Error('No active signing key.');
    const iat = Math.floor(now.getTime() / 1000);
    return new SignJWT({ scope: claims.scope, client_id: claims.client_id, sid: claims.sid })
      .setProtectedHeader({ alg: ALG, kid: key.kid, typ: 'at+jwt' })
      .setIssuer(claims.iss)
      .setAudience(claims.aud)
      .setSubject(claims.sub)
      .setIssuedAt(iat)
      .setExpirationTime(iat + ACCESS_TOKEN_SECONDS)
      .setJti(randomUUID())
      .sign(key.privateKey!);
  }

  /** Verifies an access token's signature, type, issuer, audience and expiry. */
  async verify(token: string, issuer: string, audiences: string[], now: Date) {
    const find = async (kid: string | undefined, force: boolean) => (await this.fresh(force)).find((k) => k.kid === kid);
    const { payload } = await jwtVerify(
      token,
      async (header) => {
        const key = (await find(header.kid, false)) ?? (await find(header.kid, true));
        if (!key) throw new Error('unknown key');
        return key.publicKey;
      },
      { issuer, audience: audiences, typ: 'at+jwt', algorithms: [ALG], currentDate: now, requiredClaims: ['exp', 'iat', 'sub', 'sid', 'scope'] },
    );
    if (typeof payload.sub !== 'string' || !isEmail(payload.sub) || typeof payload.sid !== 'string' || typeof payload.scope !== 'string') {
      throw new Error('malformed claims');
    }
    return payload as { sub: string; scope: string; client_id: string; aud: string; sid: string };
  }
}
