import { createBusiness } from '@frontdesk/use-cases';
import { createTestDatabase, type TestDatabase } from '@frontdesk/db/testing';
import { DEFAULT_WEEKLY_HOURS, type NewBusinessInput } from '@frontdesk/domain';
import { createLogger } from '@frontdesk/http';
import { TEST_KEY_SEALER, TEST_OAUTH_CONFIG, TEST_RATE_LIMITS, perFile } from './pro-desk';
import { createProDeskApp } from '@frontdesk/pro-desk';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { createBookingApp } from '@frontdesk/booking';

/** Monday 2026-11-23, 07:00 in New York. */
export const MONDAY_7AM = new Date('2026-11-23T12:00:00Z');
export const PUBLIC_KEY = 'fdpub_test_public_key';
export { TEST_KEY_SEALER, TEST_OAUTH_CONFIG, TEST_RATE_LIMITS };

/** Both hosts on one fresh database, over real HTTP, sharing a clock tests can move. */
export async function bothHosts(now = MONDAY_7AM) {
  const t: TestDatabase = await createTestDatabase();
  const clock = { now };
  const logger = createLogger('test', process.env.LOG_LEVEL ?? 'silent');
  const config = {
    publicUrl: 'http://book.test',
    proDeskUrl: 'http://pro.test',
    bookingUrl: 'http://book.test',
    publicSharedKey: PUBLIC_KEY,
    mcpAllowedOrigins: ['https://claude.ai'],
    keySealer: TEST_KEY_SEALER,
    checkAnswers: true,
    rateLimits: TEST_RATE_LIMITS,
  };
  const book = createBookingApp({ db: t.db, config, logger, clock: () => clock.now });
  const pro = createProDeskApp({ db: t.db, config, logger, clock: () => clock.now });
  return {
    t,
    clock,
    book: request(book.app),
    /** The book host's app, for a browser-like agent that keeps cookies (the pages' shown-once results). */
    bookApp: book.app,
    pro: request(pro.app),
    bookOps: book.operations,
    /** The pro host's operation registry, as its REST routes and MCP tools are made from it. */
    proOps: pro.operations,
    close: () => t.drop(),
  };
}

export type Hosts = Awaited<ReturnType<typeof bothHosts>>;

/** Both hosts for a whole test file, their shared clock back at MONDAY_7AM before each test. */
export const bothHostsPerFile = (): Hosts => perFile(() => bothHosts());

export async function newCleaner(h: Hosts, over: Partial<NewBusinessInput> = {}) {
  const { pro, apiKey } = await createBusiness(h.t.db, {
    name: `Cleaner ${randomBytes(3).toString('hex')}`,
    timezone: 'America/New_York',
    service_zips: ['10001'],
    weekly_hours: DEFAULT_WEEKLY_HOURS,
    ...over,
  });
  return { pro, auth: { Authorization: `Bearer ${apiKey}` } };
}

export const asPublic = { Authorization: `Bearer ${PUBLIC_KEY}` };

export const booking = (cleanerId: string, over: Record<string, unknown> = {}) => ({
  cleaner_id: cleanerId,
  start: '2026-11-24T09:00:00-05:00',
  bedrooms: 2,
  bathrooms: 1,
  customer_name: 'Ana Lopez',
  customer_email: 'ana@example.com',
  address: '12 Grove St, Apt 3',
  zip: '10001',
  ...over,
});

/** A book_job body for the pro host: the same job and time, booked by the business itself. */
export const proBooking = (over: Record<string, unknown> = {}) => ({
  bedrooms: 2,
  bathrooms: 1,
  start: '2026-11-24T09:00:00-05:00',
  customer_name: 'Ana',
  customer_phone: '212 555 0100',
  address: '1 Main St',
  zip: '10001',
  ...over,
});

/** A weekly series a customer books on the book host from `start` (the shared key): its manage token and visits. */
export async function bookWeekly(h: Hosts, cleanerId: string, start: string) {
  const made = await h.book
    .post('/api/v1/book_cleaning')
    .set(asPublic)
    .send(booking(cleanerId, { frequency: 'weekly', start }))
    .expect(200);
  return made.body as { manage_token: string; series: { visits: { booking_id: string; start: string; label: string }[] } };
}
