import { createBusiness } from '@frontdesk/use-cases';
import { createTestDatabase, signInCodeSentTo, type TestDatabase } from '@frontdesk/db/testing';
import { DEFAULT_WEEKLY_HOURS, type NewBusinessInput } from '@frontdesk/domain';
import { createLogger, defaultRateLimits, scaleRateLimits } from '@frontdesk/http';
import { KeySealer } from '@frontdesk/oauth';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { createProDeskApp, proDeskOperations, type AppContext as ProDeskContext } from '@frontdesk/pro-desk';
import { bookingOperations, type AppContext as BookingContext } from '@frontdesk/booking';

/** Tests seal signing keys with a fixed key-encryption key, as a deployment would with its own. */
export const TEST_KEY_SEALER = new KeySealer(Buffer.alloc(32, 7));

/** Monday 2026-11-23, 07:00 in New York. */
export const MONDAY_7AM = new Date('2026-11-23T12:00:00Z');

/**
 * Every limit counted as in production but a thousand times higher, so only the limit tests
 * reach one; codes per address keep the real limit, which the sign-in tests assert.
 */
export const TEST_RATE_LIMITS = { ...scaleRateLimits(defaultRateLimits(), 1000), signInPerAddress: defaultRateLimits().signInPerAddress };

/** What an app under an OAuth test is configured with on either host, besides its addresses. */
export const TEST_OAUTH_CONFIG = {
  mcpAllowedOrigins: [] as string[],
  publicClientId: 'front-desk',
  publicClientRedirectUris: ['http://127.0.0.1:9/callback'],
  keySealer: TEST_KEY_SEALER,
  checkAnswers: true,
  rateLimits: TEST_RATE_LIMITS,
};

/**
 * The operations of each host, sorted, read from the hosts' registries (the operations are
 * only defined, never run, so no context is needed): REST paths and MCP tools must be exactly these.
 */
export const PRO_DESK_OPERATIONS = proDeskOperations({} as ProDeskContext)
  .map((op) => op.name)
  .sort();
export const BOOKING_OPERATIONS = bookingOperations({} as BookingContext)
  .map((op) => op.name)
  .sort();
/** Every operation of both hosts. */
export const ALL_OPERATIONS = { pro: proDeskOperations({} as ProDeskContext), book: bookingOperations({} as BookingContext) };

export interface Harness {
  t: TestDatabase;
  clock: { now: Date };
  api: ReturnType<typeof request>;
  app: ReturnType<typeof createProDeskApp>['app'];
  close(): Promise<void>;
}

/** The pro-desk app on a fresh database, driven over real HTTP, with a clock tests can move. */
export async function proDeskHarness(now = MONDAY_7AM, settings: { requestDeadlineMs?: number } = {}): Promise<Harness> {
  const t = await createTestDatabase();
  const clock = { now };
  const { app } = createProDeskApp({
    db: t.db,
    config: {
      publicUrl: 'http://pro.test',
      bookingUrl: 'http://book.test',
      mcpAllowedOrigins: ['https://claude.ai'],
      rateLimits: TEST_RATE_LIMITS,
      keySealer: TEST_KEY_SEALER,
      checkAnswers: true,
      ...settings,
    },
    logger: createLogger('pro-desk-test', process.env.LOG_LEVEL ?? 'silent'),
    clock: () => clock.now,
  });
  return { t, clock, api: request(app), app, close: () => t.drop() };
}

/**
 * One harness for a whole test file: opened before its first test, closed after its last,
 * its clock back at MONDAY_7AM before each test. The object is filled in by beforeAll.
 */
export function perFile<T extends { clock: { now: Date }; close(): Promise<void> }>(open: () => Promise<T>): T {
  const h = {} as T;
  beforeAll(async () => {
    Object.assign(h, await open());
  });
  afterAll(() => h.close());
  beforeEach(() => {
    h.clock.now = MONDAY_7AM;
  });
  return h;
}

export const proDeskHarnessPerFile = (): Harness => perFile(() => proDeskHarness());

/**
 * A business with a unique name after `name`, in New York, serving 10001 in the default hours
 * unless `over` says otherwise; with its pro key, and the key as a bearer header.
 */
export async function businessWithKey(t: TestDatabase, name: string, over: Partial<NewBusinessInput> = {}) {
  const { pro, apiKey } = await createBusiness(t.db, {
    name: `${name} ${randomBytes(3).toString('hex')}`,
    timezone: 'America/New_York',
    service_zips: ['10001'],
    weekly_hours: DEFAULT_WEEKLY_HOURS,
    ...over,
  });
  return { pro, key: apiKey, auth: { Authorization: `Bearer ${apiKey}` } };
}

export const newPro = (h: Harness, over: Partial<NewBusinessInput> = {}) => businessWithKey(h.t, 'Sparkle', over);

export const validBooking = (over: Record<string, unknown> = {}) => ({
  bedrooms: 2,
  bathrooms: 1,
  start: '2026-11-24T09:00:00-05:00',
  customer_name: 'Ana Lopez',
  customer_phone: '(212) 555-0100',
  address: '12 Grove St, Apt 3',
  zip: '10001',
  ...over,
});

/** Signs in to the dashboard as the owner at `email`, by the code mailed there: the session cookie, the form token and the first page. */
export async function dashboardSession(h: Harness, email: string): Promise<{ cookie: string; csrf: string; page: string }> {
  await h.api.post('/dashboard/code').type('form').send({ email }).expect(303);
  const verified = await h.api
    .post('/dashboard/verify')
    .type('form')
    .send({ email, code: await signInCodeSentTo(h.t.db, email) })
    .expect(303);
  const cookie = String((verified.headers['set-cookie'] as unknown as string[])[0]).split(';')[0]!;
  const page = await h.api.get('/dashboard').set('Cookie', cookie).expect(200);
  const csrf = /name="csrf" value="([^"]+)"/.exec(page.text)![1]!;
  return { cookie, csrf, page: page.text };
}

/** A dashboard form's POST with the session's cookie and form token, as the page sends it. */
export const postDashboardForm = (h: Harness, s: { cookie: string; csrf: string }, path: string, form: Record<string, string> = {}) =>
  h.api
    .post(path)
    .set('Cookie', s.cookie)
    .type('form')
    .send({ csrf: s.csrf, ...form });

/** Opens a sign-in page at `path`: an HTML page whose first form posts the email to `${path}/code`. */
export async function openSignInPage(h: Harness, path: string) {
  const page = await h.api.get(path).expect(200);
  expect(page.headers['content-type']).toMatch(/text\/html/);
  expect(page.text).toContain(`<form method="post" action="${path}/code">`);
  return page;
}

/** Follows a dashboard form's 303 as a browser does: to the page it names, with the result's sealed cookie beside the session's. */
export async function followDashboardForm(h: Harness, s: { cookie: string }, res: { status: number; headers: Record<string, unknown> }) {
  expect(res.status).toBe(303);
  const cookies = ([] as string[]).concat((res.headers['set-cookie'] as string[] | undefined) ?? []).map((c) => c.split(';')[0]!);
  const result = cookies.find((c) => c.startsWith('fd_dash_done='));
  const cookie = [s.cookie, ...(result ? [result] : [])].join('; ');
  const location = String(res.headers.location);
  return { location, cookie, text: (await h.api.get(location).set('Cookie', cookie).expect(200)).text };
}

/** A page's text as a person reads it: no style, tags or entities, spaces collapsed. */
export const pageText = (page: string) =>
  page
    .replace(/<style>[^<]*<\/style>/, '')
    .replace(/<\/?bdi>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, ' ');
