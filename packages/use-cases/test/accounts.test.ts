import { findProByKey, findPersonalKey } from '@frontdesk/db';
import { createTestDatabase, signInCodeSentTo, type TestDatabase } from '@frontdesk/db/testing';
import {
  createBusiness,
  dashboardOwner,
  issuePersonalKey,
  loadDemoBusiness,
  openDashboardSession,
  requestSignInCode,
  revokeOwnKey,
  rotateBusinessKey,
  verifySignInCode,
} from '../src';

// Businesses, keys, sign-in codes and sessions through the use cases, on a real database.

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t.drop());

const now = new Date('2030-01-01T12:00:00Z');
/** The keys a host derives from its KEY_ENCRYPTION_KEY; any 32 bytes do here. */
const KEYS = [Buffer.alloc(32, 3)];

describe('a new business', () => {
  it('is checked, has its name trimmed and each ZIP once, starts at the defaults, and has a working key', async () => {
    await expect(createBusiness(t.db, { name: 'Ok', timezone: 'Mars/Base', service_zips: ['10001'] })).rejects.toThrow(/IANA time zone/);
    const { pro, apiKey } = await createBusiness(t.db, { name: '  Tidy Homes ', timezone: 'America/Chicago', service_zips: ['60601', '60601', '60602'] });
    expect(pro).toMatchObject({ name: 'Tidy Homes', service_zips: ['60601', '60602'], travel_buffer_minutes: 30, min_notice_minutes: 720 });
    expect((await findProByKey(t.db, apiKey))?.id).toBe(pro.id);
  });

  it('gets a new key that retires every older one', async () => {
    const { pro, apiKey } = await createBusiness(t.db, { name: 'Key Maids', timezone: 'America/Chicago', service_zips: ['60601'] });
    const fresh = await rotateBusinessKey(t.db, pro.id, now);
    expect(fresh).not.toBe(apiKey);
    expect(await findProByKey(t.db, apiKey)).toBeUndefined();
    expect((await findProByKey(t.db, fresh))?.id).toBe(pro.id);
    await expect(rotateBusinessKey(t.db, 'pro_nobody', now)).rejects.toThrow('This business no longer exists.');
  });

  it('the demo loads once, and gets a fresh key each start', async () => {
    const first = await loadDemoBusiness(t.db, now);
    const again = await loadDemoBusiness(t.db, now);
    expect([first.created, again.created]).toEqual([true, false]);
    expect(again.pro.id).toBe(first.pro.id);
    expect(await findProByKey(t.db, first.apiKey)).toBeUndefined();
  });
});

describe('sign-in codes', () => {
  it('works once, counts wrong tries, and expires', async () => {
    const email = 'Dana@Example.com';
    await requestSignInCode(t.db, email, now, { purpose: 'test', keys: KEYS });
    const code = await signInCodeSentTo(t.db, email);
    const wrong = code === '000000' ? '111111' : '000000';
    await expect(verifySignInCode(t.db, email, wrong, { now, keys: KEYS })).rejects.toThrow('4 tries left');
    expect(await verifySignInCode(t.db, email, code, { now, keys: KEYS })).toBe('dana@example.com');
    await expect(verifySignInCode(t.db, email, code, { now, keys: KEYS })).rejects.toThrow('already used');
    const sent = new Date(now.getTime() + 60_000);
    await requestSignInCode(t.db, email, sent, { purpose: 'test', keys: KEYS });
    const later = new Date(sent.getTime() + 11 * 60_000);
    await expect(verifySignInCode(t.db, email, await signInCodeSentTo(t.db, email), { now: later, keys: KEYS })).rejects.toThrow('expired');
  });

  it("opens the owner's dashboard, or says the address owns no business", async () => {
    const { pro } = await createBusiness(t.db, { name: 'Owned', timezone: 'America/Chicago', service_zips: ['60601'], owner_email: 'owner@example.com' });
    await requestSignInCode(t.db, 'owner@example.com', now, { purpose: 'test', keys: KEYS });
    const opened = await openDashboardSession(t.db, { email: 'owner@example.com', code: await signInCodeSentTo(t.db, 'owner@example.com'), now, keys: KEYS });
    expect(opened.pro?.id).toBe(pro.id);
    expect((await dashboardOwner(t.db, opened.token!, now))?.id).toBe(pro.id);
    expect(await dashboardOwner(t.db, opened.token!, new Date(now.getTime() + 13 * 3_600_000))).toBeUndefined();
    await requestSignInCode(t.db, 'nobody@example.com', now, { purpose: 'test', keys: KEYS });
    const none = await openDashboardSession(t.db, { email: 'nobody@example.com', code: await signInCodeSentTo(t.db, 'nobody@example.com'), now, keys: KEYS });
    expect(none).toEqual({ email: 'nobody@example.com', pro: null, token: null });
  });
});

describe('personal keys', () => {
  it('belong to the normalized address, and only their owner revokes them', async () => {
    const { key, record } = await issuePersonalKey(t.db, 'Kim@Example.com');
    expect(record.email).toBe('kim@example.com');
    expect(await revokeOwnKey(t.db, { keyId: record.id, email: 'someone@example.com' }, now)).toBe(false);
    expect(await findPersonalKey(t.db, key)).toBeDefined();
    expect(await revokeOwnKey(t.db, { keyId: record.id, email: 'kim@example.com' }, now)).toBe(true);
    expect(await findPersonalKey(t.db, key)).toBeUndefined();
  });
});
