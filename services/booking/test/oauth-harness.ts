import { createLogger } from '@frontdesk/http';
import { freePort } from '@frontdesk/db';
import { createTestDatabase, type TestDatabase } from '@frontdesk/db/testing';
import type { AddressInfo, Server } from 'node:net';
import { createBookingApp } from '../src';

/** The book host on a real port whose public URL is that port: OAuth checks the issuer. */
export async function bookHostOnPort(clock: { now: Date } = { get now() { return new Date(); } }) {
  const t: TestDatabase = await createTestDatabase();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const { app } = createBookingApp({
    db: t.db,
    config: {
      publicUrl: url,
      proDeskUrl: 'http://pro.test',
      publicSharedKey: 'fdpub_test_public_key',
      mcpAllowedOrigins: [],
      publicClientId: 'front-desk',
      publicClientRedirectUris: ['http://127.0.0.1:9/callback'],
    },
    logger: createLogger('t', process.env.LOG_LEVEL ?? 'silent'),
    clock: () => clock.now,
  });
  const server: Server = await new Promise((res) => {
    const s = app.listen(port, '127.0.0.1', () => res(s));
  });
  expect((server.address() as AddressInfo).port).toBe(port);
  return { t, url, clock, close: async () => { await new Promise<void>((r) => server.close(() => r())); await t.drop(); } };
}

export type BookHost = Awaited<ReturnType<typeof bookHostOnPort>>;

/** The sign-in code, read where a mail server would get it: the outbox. */
export async function codeSentTo(host: BookHost, email: string): Promise<string> {
  const mail = await host.t.db.selectFrom('outbox').select('subject').where('to_address', '=', email).orderBy('created_at', 'desc').executeTakeFirstOrThrow();
  return /\b(\d{6})\b/.exec(mail.subject)![1]!;
}

const field = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1];

/**
 * A person in a browser: opens the authorization URL, signs in with the emailed code and
 * answers the consent page. Returns where the server sends the browser back to.
 */
export async function signInAndDecide(host: BookHost, authorizationUrl: string, email: string, decision: 'allow' | 'deny' = 'allow'): Promise<URL> {
  const start = await fetch(authorizationUrl, { redirect: 'manual' });
  if (start.status === 303) return new URL(start.headers.get('location')!);
  const page1 = await start.text();
  if (start.status !== 200) throw new Error(`authorize answered ${start.status}: ${page1}`);
  const requestId = field(page1, 'request_id')!;
  const post = (path: string, body: Record<string, string>) =>
    fetch(`${host.url}${path}`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: host.url }, body: new URLSearchParams(body) });
  const page2 = await post('/authorize/email', { request_id: requestId, email });
  expect(page2.status).toBe(200);
  const code = await codeSentTo(host, email.toLowerCase());
  const page3 = await post('/authorize/code', { request_id: requestId, email, code });
  const consent = await page3.text();
  expect(consent).toMatch(/asks to:/);
  const done = await post('/authorize/consent', { request_id: requestId, decision });
  expect(done.status).toBe(303);
  return new URL(done.headers.get('location')!);
}
