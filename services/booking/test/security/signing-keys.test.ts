import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@frontdesk/db/testing';
import { flatten, readKeyEncryptionKeys, withLocalKeyEncryptionKey, type Env } from '@frontdesk/config';
import { KeySealer, SigningKeys, keySealerFrom, rotateSigningKey } from '@frontdesk/oauth';

// A copy of the database alone cannot sign a token: private keys are sealed with a key that
// lives only in the environment (or, for the one-command local run, in the local data folder).
let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t.drop());

const claims = (sid: string) => ({ iss: 'https://book.example', aud: 'https://book.example', sub: 'kim@example.com', scope: 'read', client_id: 'c', sid });
/** The sealer a service builds at start from its environment. */
const readKeySealer = (env: Env) => keySealerFrom(readKeyEncryptionKeys(flatten(env)));
const verify = (keys: SigningKeys, token: string) => keys.verify(token, 'https://book.example', ['https://book.example'], new Date());

describe('signing keys at rest', () => {
  it('stores only a sealed private key, which another key-encryption key cannot open', async () => {
    const sealer = new KeySealer(randomBytes(32));
    await verify(new SigningKeys(t.db, sealer), await new SigningKeys(t.db, sealer).sign(claims('s1'), new Date()));
    const row = await t.db.selectFrom('oauth_signing_keys').selectAll().where('retired_at', 'is', null).executeTakeFirstOrThrow();
    const stored = JSON.stringify(row);
    expect(stored).not.toMatch(/"d":/); // the private scalar of a JWK
    expect(() => JSON.parse(row.private_key_sealed!.toString('utf8')) as unknown).toThrow();
    expect(JSON.parse(sealer.open(row.private_key_sealed!, row.kid).toString('utf8'))).toHaveProperty('d');
    expect(() => new KeySealer(randomBytes(32)).open(row.private_key_sealed!, row.kid)).toThrow(/KEY_ENCRYPTION_KEY this service does not have/);
    // Bound to its row: the same sealed bytes under another kid do not open.
    expect(() => sealer.open(row.private_key_sealed!, 'another-kid')).toThrow();
    // A replica holding another key cannot sign with the stored key.
    await expect(new SigningKeys(t.db, new KeySealer(randomBytes(32))).sign(claims('s2'), new Date())).rejects.toThrow(/does not have/);
  });

  it('rotates the key-encryption key across replicas without refusing a token', async () => {
    const old = randomBytes(32);
    const fresh = randomBytes(32);
    const before = new SigningKeys(t.db, new KeySealer(old));
    await rotateSigningKey(t.db, new KeySealer(old), new Date());
    const signedBefore = await before.sign(claims('s3'), new Date());
    // Step 1: every replica gets the new key, the old one as KEY_ENCRYPTION_KEY_PREVIOUS.
    const during = readKeySealer({ KEY_ENCRYPTION_KEY: fresh.toString('base64'), KEY_ENCRYPTION_KEY_PREVIOUS: old.toString('hex') });
    const replicaA = new SigningKeys(t.db, during);
    expect(await verify(replicaA, await replicaA.sign(claims('s4'), new Date()))).toMatchObject({ sid: 's4' });
    // Step 2: a new signing key, sealed with the new key-encryption key.
    await rotateSigningKey(t.db, during, new Date());
    // Step 3: the old key-encryption key is gone; tokens signed before still verify (public half).
    const after = new SigningKeys(t.db, new KeySealer(fresh));
    expect(await verify(after, signedBefore)).toMatchObject({ sid: 's3' });
    expect(await verify(after, await after.sign(claims('s5'), new Date()))).toMatchObject({ sid: 's5' });
  });

  it('is required of a deployed service, and named when missing or malformed', () => {
    expect(() => readKeySealer({})).toThrow(/^KEY_ENCRYPTION_KEY must be set/);
    expect(() => readKeySealer({ KEY_ENCRYPTION_KEY: 'short' })).toThrow(/KEY_ENCRYPTION_KEY must be 32 random bytes/);
  });

  it('is made once for a local run in the data folder, private to its owner, and reused', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fd-kek-'));
    const first = withLocalKeyEncryptionKey({ FRONT_DESK_DATA_DIR: dir }, '/nowhere');
    const second = withLocalKeyEncryptionKey({ FRONT_DESK_DATA_DIR: dir }, '/nowhere');
    expect(first.KEY_ENCRYPTION_KEY).toBe(second.KEY_ENCRYPTION_KEY);
    expect(readFileSync(join(dir, 'key-encryption-key'), 'utf8').trim()).toBe(first.KEY_ENCRYPTION_KEY);
    expect(statSync(join(dir, 'key-encryption-key')).mode & 0o777).toBe(0o600);
    expect(() => readKeySealer(first)).not.toThrow();
    // A key from the environment wins, and no file is needed.
    expect(withLocalKeyEncryptionKey({ KEY_ENCRYPTION_KEY: 'given' }, '/nowhere').KEY_ENCRYPTION_KEY).toBe('given');
  });
});
