import { createBusiness } from '@frontdesk/use-cases';
import type { Server } from 'node:http';
import * as oauth from 'oauth4webapi';
import { freePort } from '@frontdesk/db';
import { createTestDatabase, type TestDatabase } from '@frontdesk/db/testing';
import { closeServer, listen } from '@frontdesk/http';
import { createBookingApp } from '@frontdesk/booking';
import { createProDeskApp } from '@frontdesk/pro-desk';
import { DEFAULT_WEEKLY_HOURS, ERASED_MAIL_SUBJECT } from '@frontdesk/domain';
import { TEST_KEY_SEALER, TEST_RATE_LIMITS } from '@frontdesk/dev-env/both-hosts';
import { startMailSink, type Received } from './mail-sink';
import { startsOf } from '@frontdesk/domain';

jest.setTimeout(60_000);

// A full flow (a personal key by emailed code, an OAuth sign-in, bookings with the user's
// details in headers, a pro's own booking) with request logging on, mail going out through a
// real SMTP server: afterwards no key, token, code, email or phone of that flow is in the log,
// and the outbox keeps no usable code.
let t: TestDatabase;
const servers: Server[] = [];
let sink: Awaited<ReturnType<typeof startMailSink>> | undefined;
let logLines: string[] = [];
let inbox: Received[] = [];
let pro = '';
let book = '';

beforeAll(async () => {
  t = await createTestDatabase();
  sink = await startMailSink(t.db, 'scan');
  ({ inbox, logLines } = sink);
  const logger = sink.logger;
  const [proPort, bookPort] = [await freePort(), await freePort()];
  pro = `http://127.0.0.1:${proPort}`;
  book = `http://127.0.0.1:${bookPort}`;
  const common = {
    proDeskUrl: pro,
    bookingUrl: book,
    publicSharedKey: 'fdpub_scan_public_key',
    mcpAllowedOrigins: [],
    keySealer: TEST_KEY_SEALER,
    checkAnswers: true,
    rateLimits: TEST_RATE_LIMITS,
  };
  const clock = () => new Date();
  servers.push(await listen(createProDeskApp({ db: t.db, config: { ...common, publicUrl: pro }, logger, clock }).app, proPort, '127.0.0.1'));
  servers.push(await listen(createBookingApp({ db: t.db, config: { ...common, publicUrl: book }, logger, clock }).app, bookPort, '127.0.0.1'));
});
afterAll(async () => {
  await Promise.all(servers.map(closeServer));
  await sink?.stop();
  await t?.drop();
});

/** The code in the newest mail the SMTP server received for `email`. */
async function mailedCode(email: string, after: number): Promise<string> {
  for (let i = 0; i < 100; i += 1) {
    const mail = inbox.slice(after).find((m) => m.to === email);
    const code = mail && /\b(\d{6})\b/.exec(mail.raw)?.[1];
    if (code) return code;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no mail reached ${email}`);
}
const json = async (res: Response) => (await res.json()) as Record<string, any>;
const post = (url: string, body: object, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
const postForm = (url: string, body: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: book, ...headers },
    body: new URLSearchParams(body),
  });

it('leaves no secret or personal detail of the flow in the logs, and no usable code in the outbox', async () => {
  const secrets: string[] = [];
  const keep = (...values: string[]) => (secrets.push(...values), values[0]!);
  const customer = keep('dana.secret@example.com');
  const phone = keep('212-555-0199');
  const name = keep('Dana Whitfield');

  // 1. A personal key from the /key API, by a code that arrives over SMTP.
  let seen = inbox.length;
  expect((await post(`${pro}/key/api/code`, { email: customer })).status).toBe(202);
  const keyCode = keep(await mailedCode(customer, seen));
  const personal = keep((await json(await post(`${pro}/key/api/keys`, { email: customer, code: keyCode }))).key as string);

  // 2. An OAuth sign-in: register, authorize, emailed code, consent, token, refresh, revoke.
  const redirectUri = 'http://127.0.0.1:9/cb';
  const client = await json(await post(`${book}/register`, { client_name: 'Scanner', redirect_uris: [redirectUri] }));
  const verifier = keep(oauth.generateRandomCodeVerifier());
  const start = await fetch(
    `${book}/authorize?${new URLSearchParams({ response_type: 'code', client_id: client.client_id, redirect_uri: redirectUri, code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state: 's' }).toString()}`,
  );
  const requestId = keep(/name="request_id" value="([^"]+)"/.exec(await start.text())![1]!);
  seen = inbox.length;
  await postForm(`${book}/authorize/email`, { request_id: requestId, email: customer });
  const oauthSignInCode = keep(await mailedCode(customer, seen));
  await postForm(`${book}/authorize/code`, { request_id: requestId, email: customer, code: oauthSignInCode });
  const consent = await postForm(`${book}/authorize/consent`, { request_id: requestId, decision: 'allow' });
  const authCode = keep(new URL(consent.headers.get('location')!).searchParams.get('code')!);
  const tokenForm = (body: Record<string, string>) => postForm(`${book}/token`, { client_id: client.client_id as string, ...body });
  const tokens = await json(await tokenForm({ grant_type: 'authorization_code', code: authCode, redirect_uri: redirectUri, code_verifier: verifier }));
  keep(tokens.access_token as string, tokens.refresh_token as string);
  const refreshed = await json(await tokenForm({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string }));
  keep(refreshed.access_token as string, refreshed.refresh_token as string);

  // 3. Bookings: the customer's details in X-User headers; a manage token in a query string.
  const business = await createBusiness(t.db, {
    name: 'Scan Clean',
    timezone: 'America/New_York',
    service_zips: ['10001'],
    weekly_hours: DEFAULT_WEEKLY_HOURS,
  });
  const proKey = keep(business.apiKey);
  const user = { 'X-User-Name': name, 'X-User-Email': customer, 'X-User-Phone': phone, authorization: `Bearer ${refreshed.access_token}` };
  const start1 = new Date(Date.now() + 3 * 86_400_000);
  const times = await json(
    await fetch(
      `${book}/api/v1/available_times?${new URLSearchParams({ cleaner_id: business.pro.id, bedrooms: '2', bathrooms: '1', date: start1.toISOString().slice(0, 10) }).toString()}`,
      {
        headers: user,
      },
    ),
  );
  const slot = startsOf(times.open_times as { starts: string[] }[])[0]!;
  const booked = await json(
    await post(
      `${book}/api/v1/book_cleaning`,
      { cleaner_id: business.pro.id, start: slot, bedrooms: 2, bathrooms: 1, address: '9 Secret Lane', zip: '10001' },
      user,
    ),
  );
  const manage = keep(booked.manage_token as string);
  expect((await fetch(`${book}/manage/${manage}`)).status).toBe(200);
  expect((await fetch(`${book}/api/v1/booking_status?manage_token=${manage}`, { headers: { authorization: `Bearer ${personal}` } })).status).toBe(200);
  // The same secrets in the other spellings the router answers to, and a token in the query.
  expect((await fetch(`${book}/MANAGE/${manage}`)).status).toBe(200);
  expect((await fetch(`${book}/api/v1/booking_status?manage%5Ftoken=${manage}`, { headers: { authorization: `Bearer ${personal}` } })).status).toBe(200);
  await fetch(`${book}/api/v1/my_bookings?access_token=${refreshed.access_token as string}`, { headers: { authorization: `Bearer ${personal}` } });
  expect((await post(`${book}/api/v1/cancel_booking`, { manage_token: manage }, { authorization: `Bearer ${personal}` })).status).toBe(200);
  const proPhone = keep('917-555-0142');
  const proCustomer = keep('lee.private@example.com');
  const own = await post(
    `${pro}/api/v1/book_job`,
    {
      bedrooms: 1,
      bathrooms: 1,
      start: slot,
      customer_name: 'Lee Private',
      customer_phone: proPhone,
      customer_email: proCustomer,
      address: '1 Main St',
      zip: '10001',
    },
    { authorization: `Bearer ${proKey}` },
  );
  expect(own.status).toBe(200);
  // A wrong key and a bad header value are logged too: their values must not be.
  expect((await fetch(`${book}/api/v1/my_bookings`, { headers: { authorization: `Bearer fdp_${'w'.repeat(32)}`, 'X-User-Phone': phone } })).status).toBe(401);
  expect((await postForm(`${book}/revoke`, { token: refreshed.refresh_token as string })).status).toBe(200);

  // 4. A business signs up, signs in to its dashboard, and its calendar feed is fetched.
  const owner = keep('owner.private@example.com');
  seen = inbox.length;
  expect((await post(`${pro}/signup/api/code`, { email: owner })).status).toBe(202);
  const signUpCode = keep(await mailedCode(owner, seen));
  const signed = await json(
    await post(`${pro}/signup/api/business`, { email: owner, code: signUpCode, name: 'Scan Owner Co', timezone: 'America/New_York', service_zips: ['10001'] }),
  );
  keep(signed.api_key as string);
  seen = inbox.length;
  await postForm(`${pro}/dashboard/code`, { email: owner }, { origin: pro });
  const dashboardCode = keep(await mailedCode(owner, seen));
  const verified = await postForm(`${pro}/dashboard/verify`, { email: owner, code: dashboardCode }, { origin: pro });
  const cookie = verified.headers.get('set-cookie')!.split(';')[0]!;
  keep(cookie.split('=')[1]!);
  const dashboard = await (await fetch(`${pro}/dashboard`, { headers: { cookie } })).text();
  const csrf = keep(/name="csrf" value="([^"]+)"/.exec(dashboard)![1]!);
  const making = await postForm(`${pro}/dashboard/calendar`, { csrf }, { origin: pro, cookie });
  // The address is shown after the form's 303, from a sealed short-lived cookie.
  const shown = making.headers.getSetCookie().map((c) => c.split(';')[0]!);
  const made = await (await fetch(`${pro}${making.headers.get('location')!}`, { headers: { cookie: [cookie, ...shown].join('; ') } })).text();
  const feedUrl = /id="calendar-url">([^<]+)</.exec(made)![1]!;
  keep(feedUrl.split('/calendar/')[1]!.replace('.ics', ''));
  expect((await fetch(feedUrl)).status).toBe(200);
  expect((await fetch(feedUrl.replace('/calendar/', '/Calendar/'))).status).toBe(200);

  await new Promise((r) => setTimeout(r, 300)); // let the last mail and log lines land
  const log = logLines.join('');
  expect(log.length).toBeGreaterThan(1000); // the requests were logged
  expect(log).toContain('"url":"/api/v1/booking_status?manage_token=[redacted]"');
  expect(log).toContain('"url":"/calendar/[redacted]"');
  expect(log).toContain('"url":"/manage/[redacted]"');
  for (const secret of secrets) expect({ secret, found: log.includes(secret) }).toEqual({ secret, found: false });

  // The outbox remembers that codes and the booking's link went out, never what they were;
  // the cancellation's confirmation carries no credential (it keeps the customer's name until
  // purged), and no key, token, code, address or phone of the flow is kept in what mails say.
  const mails = await t.db.selectFrom('outbox').selectAll().where('to_address', '=', customer).orderBy('created_at').execute();
  expect(mails.map((m) => [m.secret, m.sent_at !== null])).toEqual([
    [true, true],
    [true, true],
    [true, true],
    [false, true],
  ]);
  for (const m of mails.filter((m) => m.secret)) expect([m.subject, m.text_body, m.ics]).toEqual([ERASED_MAIL_SUBJECT, '', null]);
  const kept = JSON.stringify(await t.db.selectFrom('outbox').select(['subject', 'text_body', 'ics']).execute());
  for (const secret of secrets.filter((s) => s !== name)) expect({ secret, kept: kept.includes(secret) }).toEqual({ secret, kept: false });
});
