import { createTestDatabase, storedStrings, type TestDatabase } from '@frontdesk/db/testing';
import { MULTI_LINE_PATTERN, SINGLE_LINE_PATTERN, isSingleLine, type NewBusinessInput } from '@frontdesk/domain';
import { createLogger } from '@frontdesk/http';
import { TEST_KEY_SEALER, TEST_OAUTH_CONFIG, TEST_RATE_LIMITS, businessWithKey, perFile } from './pro-desk';
import { createProDeskApp } from '@frontdesk/pro-desk';
import request from 'supertest';
import { createBookingApp, type AppContext as BookingContext } from '@frontdesk/booking';

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

export const newCleaner = (h: Hosts, over: Partial<NewBusinessInput> = {}) => businessWithKey(h.t, 'Cleaner', over);

export const asPublic = { Authorization: `Bearer ${PUBLIC_KEY}` };

/** The book host's settings as a test's own instance of it starts from: no MCP origins allowed, the tests' limits. */
export const BOOK_HOST_CONFIG: BookingContext['config'] = {
  publicUrl: 'http://book.test',
  proDeskUrl: 'http://pro.test',
  publicSharedKey: PUBLIC_KEY,
  mcpAllowedOrigins: [],
  keySealer: TEST_KEY_SEALER,
  checkAnswers: true,
  rateLimits: TEST_RATE_LIMITS,
};

/** Another book host (a replica) on a harness's database and clock, with settings of its own over BOOK_HOST_CONFIG. */
export const bookReplicaApp = (h: { t: Pick<TestDatabase, 'db'>; clock: { now: Date } }, over: Partial<BookingContext['config']> = {}) =>
  createBookingApp({ db: h.t.db, config: { ...BOOK_HOST_CONFIG, ...over }, logger: createLogger('replica', 'silent'), clock: () => h.clock.now }).app;

/** book_cleaning on the book host with the shared key and any other headers: a booking(…) body, or any body at all. */
export const bookCleaning = (h: Pick<Hosts, 'book'>, body: object | string, headers: Record<string, string> = {}) =>
  h.book.post('/api/v1/book_cleaning').set(asPublic).set(headers).send(body);

/** book_job on the pro host with a business's credentials: a proBooking(…) body, or any body at all. */
export const bookJob = (h: Pick<Hosts, 'pro'>, auth: Record<string, string>, body: object) => h.pro.post('/api/v1/book_job').set(auth).send(body);

/** An authorization request's query as an assistant sends it to /authorize (PKCE, the public client unless told). */
export const authorizeQuery = (over: Record<string, string> = {}) => ({
  client_id: 'front-desk',
  redirect_uri: 'http://localhost:6274/oauth/callback',
  response_type: 'code',
  code_challenge: 'a'.repeat(43),
  code_challenge_method: 'S256',
  ...over,
});

/** The pending authorization's id that a sign-in page carries in its forms. */
export const requestIdOn = (page: string) => /name="request_id" value="([^"]+)"/.exec(page)![1]!;

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
  const made = await bookCleaning(h, booking(cleanerId, { frequency: 'weekly', start })).expect(200);
  return made.body as { manage_token: string; series: { visits: { booking_id: string; start: string; label: string }[] } };
}

/**
 * Columns whose text may run over several lines: people's notes, and what the service writes
 * itself (mails and their calendar files, answers kept for retries, events, error texts).
 */
const MULTI_LINE_COLUMNS = new Set([
  'bookings.notes',
  'bookings.access_details',
  'leads.notes',
  'bookings.quote',
  'holds.quote',
  'leads.quote',
  'events.payload',
  'idempotency_keys.response',
  'outbox.text_body',
  'outbox.ics',
  'outbox.last_error',
  'webhooks.last_failure',
]);
const MULTI_LINE = new RegExp(MULTI_LINE_PATTERN, 'u');

/**
 * Stored text that breaks the text rules (domain plain-text.ts), as `table.column: "text"`: a
 * control, separator or override character in a one-line column, or any of them but line
 * breaks and tabs in a multi-line one.
 */
export async function textBreakingTheRules(db: TestDatabase['db']): Promise<string[]> {
  return (await storedStrings(db))
    .filter(({ column, text }) => !(MULTI_LINE_COLUMNS.has(column) ? MULTI_LINE.test(text) : isSingleLine(text)))
    .map(({ column, text }) => `${column}: ${JSON.stringify(text).slice(0, 120)}`);
}

type Schema = Record<string, any>;

/** Values the contract's patterns accept, for the fields around the one a test aims at. */
const SAMPLES: Record<string, string> = {
  '^[0-9]{5}$': '10001',
  '^([01][0-9]|2[0-3]):[0-5][0-9]$': '09:00',
  '^[0-9]{4}-[0-9]{2}-[0-9]{2}$': '2026-11-24',
  '^[0-9]{4}-(0[1-9]|1[0-2])$': '2026-11',
  '^[a-z][a-z0-9_]{0,39}$': 'oven',
  '^[A-Za-z0-9_-]{43}$': 'a'.repeat(43),
  '^https?://': 'https://calendar.example/rental.ics',
};

/** A value the schema accepts (the rules behind it may still refuse it: only the schema's verdict matters here). */
function sample(s: Schema): unknown {
  if (Array.isArray(s.enum)) return s.enum.find((v: unknown) => v !== null);
  if (s.type === 'string') return typeof s.pattern === 'string' && SAMPLES[s.pattern] ? SAMPLES[s.pattern] : 'x'.repeat(Math.max(s.minLength ?? 1, 1));
  if (s.type === 'integer' || s.type === 'number') return s.minimum ?? 1;
  if (s.type === 'boolean') return false;
  if (s.type === 'array') return Array.from({ length: s.minItems ?? 0 }, () => sample(s.items ?? {}));
  if (s.type === 'object') return Object.fromEntries(((s.required ?? []) as string[]).map((k) => [k, sample(s.properties[k])]));
  return 'x';
}

/** A text field of an operation, at any depth, held to a text rule (plain-text.ts). */
export interface TextField {
  op: string;
  method: 'get' | 'post';
  /** The field as refusals name it: `customer_name`, `add_ons[0]`, `add_ons[0].label`. */
  field: string;
  /** SINGLE_LINE_PATTERN or MULTI_LINE_PATTERN. */
  pattern: string;
  /** A whole input with `text` at the field and every other field as the schema wants it. */
  input(text: string): Record<string, unknown>;
}

function textFields(s: Schema, field: string, build: (value: unknown) => unknown): Omit<TextField, 'op' | 'method'>[] {
  if (s.type === 'string' && (s.pattern === SINGLE_LINE_PATTERN || s.pattern === MULTI_LINE_PATTERN))
    return [{ field, pattern: s.pattern, input: (text) => build(text) as Record<string, unknown> }];
  if (s.type === 'array') return textFields(s.items ?? {}, `${field}[0]`, (v) => build([v]));
  if (s.type !== 'object' || !s.properties) return [];
  return Object.entries(s.properties as Record<string, Schema>).flatMap(([k, sub]) =>
    textFields(sub, field ? `${field}.${k}` : k, (v) => build({ ...(sample(s) as object), [k]: v })),
  );
}

/** Every text field of every operation a host's /openapi.json publishes (a read's query parameters, a write's body). */
export function textFieldsOf(doc: Schema): TextField[] {
  return Object.entries(doc.paths as Record<string, Schema>).flatMap(([path, item]) =>
    Object.entries(item).flatMap(([method, entry]: [string, Schema]) => {
      const query = ((entry.parameters ?? []) as Schema[]).filter((p) => p.in === 'query');
      const schema: Schema =
        method === 'post'
          ? entry.requestBody.content['application/json'].schema
          : {
              type: 'object',
              properties: Object.fromEntries(query.map((p) => [p.name, p.schema])),
              required: query.filter((p) => p.required).map((p) => p.name),
            };
      return textFields(schema, '', (v) => v).map((f) => ({ ...f, op: path.replace('/api/v1/', ''), method: method as 'get' | 'post' }));
    }),
  );
}

/** What no one-line text may hold, by name: C0 (tab and line breaks too), DEL, C1, the separators, the overrides and isolates. */
export const CONTROL_CHARACTERS: Record<string, string> = {
  CR: '\r',
  LF: '\n',
  CRLF: '\r\n',
  TAB: '\t',
  ESC: '\u001b',
  DEL: '\u007f',
  NEL: '\u0085',
  CSI: '\u009b',
  'LINE SEPARATOR': '\u2028',
  'PARAGRAPH SEPARATOR': '\u2029',
  'LEFT-TO-RIGHT EMBEDDING': '\u202a',
  'RIGHT-TO-LEFT OVERRIDE': '\u202e',
  'LEFT-TO-RIGHT ISOLATE': '\u2066',
  'POP DIRECTIONAL ISOLATE': '\u2069',
};
/** Of those, what a multi-line field keeps. */
export const LINE_BREAKS = ['CR', 'LF', 'CRLF', 'TAB', 'NEL', 'LINE SEPARATOR', 'PARAGRAPH SEPARATOR'];
