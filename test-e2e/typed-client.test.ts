import { BOOKING_OPERATIONS, PRO_DESK_OPERATIONS } from '@frontdesk/dev-env/pro-desk';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import Ajv, { type ValidateFunction } from 'ajv';
import createClient, { type Middleware } from 'openapi-fetch';
import { createTestDatabase, type TestDatabase } from '@frontdesk/db/testing';
import { DEFAULT_WEEKLY_HOURS, EVENT_KINDS, eventSchemaOf } from '@frontdesk/domain';
import { createLogger, toJsonSchema } from '@frontdesk/http';
import { createProDeskApp } from '@frontdesk/pro-desk';
import { createBookingApp } from '@frontdesk/booking';
import { createBusiness, extendSeries, sendDueCustomerMessages } from '@frontdesk/use-cases';
import { appendEvent } from '@frontdesk/db';
import { createWebhookSender, webhookWorker } from '@frontdesk/workers';
import { Receiver } from '@frontdesk/dev-env/webhook-receiver';
import { CalendarServer, VRBO_PRODID, calendar, vrboStay } from '@frontdesk/dev-env/ical-fixtures';
import { MONDAY_7AM, PUBLIC_KEY, TEST_KEY_SEALER, TEST_RATE_LIMITS } from '@frontdesk/dev-env/both-hosts';
import { CLIENT_TYPES, clientTypesOf } from './typed-client/generate';
import type { paths as ProPaths, operations as ProOperations } from './typed-client/pro-desk';
import type { paths as BookPaths } from './typed-client/booking';

// A client generated from the published contract, as a stranger's program would use it:
// openapi-typescript's types of each host's /openapi.json (committed beside this file, so tsc
// checks every call below against them) and openapi-fetch over real HTTP to both hosts on a
// real database. It calls every operation, and reads every field of every kind of `updates`
// event through those types.

type FeedEvent = ProOperations['updates']['responses'][200]['content']['application/json']['events'][number];

/**
 * Every field an event carries beyond seq, kind, at and message, each read through the
 * generated type of its kind: a field the schema does not declare fails tsc, and a kind this
 * switch does not know fails it too (the `never` below), so a new kind is read here as well.
 */
function ownFields(e: FeedEvent): Record<string, unknown> {
  const crew = (x: { crew_id: string; crew_name: string }) => ({ crew_id: x.crew_id, crew_name: x.crew_name });
  switch (e.kind) {
    case 'booking.created':
      return {
        booking_id: e.booking_id,
        start: e.start,
        label: e.label,
        customer_name: e.customer_name,
        channel: e.channel,
        client_name: e.client_name,
        total: e.total,
        ...crew(e),
      };
    case 'booking.cancelled':
      return { booking_id: e.booking_id, start: e.start, label: e.label, customer_name: e.customer_name, cancelled_by: e.cancelled_by, ...crew(e) };
    case 'booking.rescheduled':
      return {
        booking_id: e.booking_id,
        series_id: e.series_id,
        from: e.from,
        to: e.to,
        label: e.label,
        and_following: e.and_following,
        visits_moved: e.visits_moved,
        customer_name: e.customer_name,
        rescheduled_by: e.rescheduled_by,
        ...crew(e),
      };
    case 'booking.no_show':
      return { booking_id: e.booking_id, start: e.start, label: e.label, customer_name: e.customer_name, fee_waived: e.fee_waived, ...crew(e) };
    case 'booking.assigned':
      return {
        booking_id: e.booking_id,
        series_id: e.series_id,
        start: e.start,
        label: e.label,
        customer_name: e.customer_name,
        from_crew_id: e.from_crew_id,
        from_crew_name: e.from_crew_name,
        ...crew(e),
      };
    case 'series.created':
      return {
        series_id: e.series_id,
        frequency: e.frequency,
        visits: e.visits,
        first_start: e.first_start,
        skipped: e.skipped,
        customer_name: e.customer_name,
        ...crew(e),
      };
    case 'series.cancelled':
      return { series_id: e.series_id, from: e.from, visits_cancelled: e.visits_cancelled, cancelled_by: e.cancelled_by, ...crew(e) };
    case 'series.visit_skipped':
      return { series_id: e.series_id, start: e.start, customer_name: e.customer_name, reason: e.reason };
    case 'follow_up.due':
      return { lead_id: e.lead_id, source: e.source, lead_ref: e.lead_ref, follow_up_number: e.follow_up_number, due_at: e.due_at };
    case 'jobs.today':
      return {
        date: e.date,
        count: e.count,
        jobs: e.jobs.map((j) => ({ booking_id: j.booking_id, start: j.start, customer_name: j.customer_name, address: j.address, ...crew(j) })),
      };
    case 'reminder.sent':
      return { booking_id: e.booking_id, start: e.start, label: e.label, customer_name: e.customer_name, hours_before: e.hours_before };
    case 'review_request.sent':
      return { booking_id: e.booking_id, start: e.start, label: e.label, customer_name: e.customer_name };
    case 'turnover.booked':
      return { property_id: e.property_id, stay_id: e.stay_id, booking_id: e.booking_id, start: e.start, label: e.label, ...crew(e) };
    case 'turnover.moved':
      return { property_id: e.property_id, stay_id: e.stay_id, booking_id: e.booking_id, from: e.from, to: e.to, label: e.label, ...crew(e) };
    case 'turnover.cancelled':
      return { property_id: e.property_id, stay_id: e.stay_id, booking_id: e.booking_id, start: e.start, label: e.label };
    case 'turnover.needs_attention':
      return { property_id: e.property_id, stay_id: e.stay_id, checkout: e.checkout, reason: e.reason };
    case 'property.feed_failing':
      return { property_id: e.property_id, url: e.url, reason: e.reason };
    case 'webhook.failing':
      return { webhook_id: e.webhook_id, url: e.url, attempts: e.attempts, reason: e.reason };
    case 'webhook.recovered':
    case 'webhook.removed':
      return { webhook_id: e.webhook_id, url: e.url };
    default: {
      const unknownKind: never = e;
      return unknownKind;
    }
  }
}

/** An answer's data, or a failure naming the call and what the host said. */
function ok<T>(r: { data?: T; error?: unknown; response: Response }): T {
  if (r.data === undefined) throw new Error(`${r.response.url} answered ${r.response.status}: ${JSON.stringify(r.error)}`);
  return r.data;
}

const listen = (app: Parameters<typeof createServer>[1]) =>
  new Promise<{ server: Server; url: string }>((done) => {
    const server = createServer(app).listen(0, '127.0.0.1', () => done({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
  });

let t: TestDatabase;
const clock = { now: MONDAY_7AM };
const hosts: { server: Server; url: string }[] = [];
let proUrl: string;
let bookUrl: string;

beforeAll(async () => {
  t = await createTestDatabase();
  const config = {
    publicUrl: 'http://book.test',
    proDeskUrl: 'http://pro.test',
    bookingUrl: 'http://book.test',
    publicSharedKey: PUBLIC_KEY,
    mcpAllowedOrigins: [],
    keySealer: TEST_KEY_SEALER,
    checkAnswers: true,
    rateLimits: TEST_RATE_LIMITS,
  };
  const logger = createLogger('typed-client', process.env.LOG_LEVEL ?? 'silent');
  const pro = await listen(createProDeskApp({ db: t.db, config: { ...config, publicUrl: 'http://pro.test' }, logger, clock: () => clock.now }).app);
  const book = await listen(createBookingApp({ db: t.db, config, logger, clock: () => clock.now }).app);
  hosts.push(pro, book);
  proUrl = pro.url;
  bookUrl = book.url;
});
afterAll(async () => {
  await Promise.all(hosts.map((h) => new Promise((done) => h.server.close(done))));
  await t.drop();
});

describe('the generated client types', () => {
  it.each(['pro', 'book'] as const)('are what openapi-typescript makes of the %s host /openapi.json today (run pnpm examples when not)', async (host) => {
    const doc: unknown = await (await fetch(`${host === 'pro' ? proUrl : bookUrl}/openapi.json`)).json();
    expect((await clientTypesOf(doc)) === readFileSync(CLIENT_TYPES[host], 'utf8')).toBe(true);
  });
});

/**
 * One business's weeks through the typed client: every operation of both hosts called, and
 * the whole updates feed read after. Run once, awaited by each test that looks at it.
 */
let scenario: Promise<{ called: string[]; events: FeedEvent[] }> | undefined;
const everyOperation = () => (scenario ??= runEveryOperation());

async function runEveryOperation(): Promise<{ called: string[]; events: FeedEvent[] }> {
  {
    const { pro: business, apiKey } = await createBusiness(t.db, {
      name: 'Typed Cleaning',
      timezone: 'America/New_York',
      service_zips: ['10001'],
      weekly_hours: DEFAULT_WEEKLY_HOURS,
    });
    const called = new Set<string>();
    const record: Middleware = {
      onRequest({ request }) {
        called.add(`${new URL(request.url).origin === proUrl ? 'pro' : 'book'} ${new URL(request.url).pathname}`);
      },
    };
    // Lists in a query are comma-separated, as /openapi.json says (style form, explode false).
    const querySerializer = { array: { style: 'form', explode: false } } as const;
    const pro = createClient<ProPaths>({ baseUrl: proUrl, headers: { Authorization: `Bearer ${apiKey}`, 'X-Client-Name': 'Typed' }, querySerializer });
    const book = createClient<BookPaths>({ baseUrl: bookUrl, headers: { Authorization: `Bearer ${PUBLIC_KEY}` }, querySerializer });
    pro.use(record);
    book.use(record);
    const size = { bedrooms: 2, bathrooms: 1 };
    const customer = { customer_name: 'Ana', customer_phone: '212 555 0100', address: '1 Main St', zip: '10001' };

    // The business: its profile, a price, open times, a second crew.
    const profile = ok(await pro.GET('/api/v1/my_business'));
    const firstCrew = profile.crews[0]!.crew_id;
    expect(ok(await pro.GET('/api/v1/quote_job', { params: { query: { ...size, add_ons: ['oven'] } } })).line_items.length).toBeGreaterThan(1);
    expect(ok(await pro.GET('/api/v1/open_times', { params: { query: { ...size, date: '2026-11-24', days: 1 } } })).count).toBeGreaterThan(0);
    const teamB = ok(await pro.POST('/api/v1/add_crew', { body: { name: 'Team B' } }));
    expect(ok(await pro.POST('/api/v1/update_crew', { body: { crew_id: teamB.crew_id, name: 'Team Bea' } })).name).toBe('Team Bea');
    ok(await pro.POST('/api/v1/update_business', { body: { prices: { pets_fee: 20 } } }));
    const review = { link: 'https://g.page/r/typed/review', delay_hours: 1 };
    ok(await pro.POST('/api/v1/update_business', { body: { customer_reminders: [48], review_request: review } }));

    // Leads: one to follow up, one paid lead flagged as bad.
    const direct = ok(await pro.POST('/api/v1/log_lead', { body: { source: 'website', customer_first_name: 'Mia', contact: 'mia@example.com', ...size } }));
    const paid = ok(await pro.POST('/api/v1/log_lead', { body: { source: 'marketplace_1', lead_ref: 'MK-1', lead_cost: 20, ...size } }));
    ok(await pro.POST('/api/v1/flag_bad_lead', { body: { lead_id: paid.lead_id, reason: 'out_of_area', evidence: ['2026-11-23: lives in Hoboken.'] } }));
    ok(await pro.POST('/api/v1/update_lead', { body: { lead_id: direct.lead_id, notes: 'Asked about windows.' } }));

    // Jobs: one booked, a weekly series moved and ended, another series, a job given to Team Bea.
    const job = ok(
      await pro.POST('/api/v1/book_job', { body: { ...size, ...customer, customer_email: 'ana.job@example.com', start: '2026-11-24T09:00:00-05:00' } }),
    );
    const weekly = ok(
      await pro.POST('/api/v1/book_job', {
        body: {
          ...size,
          ...customer,
          frequency: 'weekly',
          start: '2026-11-25T09:00:00-05:00',
          customer_name: 'Cy',
        },
      }),
    );
    const visits = weekly.series!.visits;
    const moved = ok(
      await pro.POST('/api/v1/reschedule_job', { body: { booking_id: visits[1]!.booking_id, start: '2026-12-03T13:00:00-05:00', and_following: true } }),
    );
    expect(moved.visits_moved).toBeGreaterThan(1);
    expect(ok(await pro.POST('/api/v1/pause_series', { body: { booking_id: visits[1]!.booking_id, weeks: 1 } })).visits_cancelled).toBe(1);
    ok(await pro.POST('/api/v1/cancel_job', { body: { booking_id: visits[2]!.booking_id, and_following: true } }));
    ok(await pro.POST('/api/v1/assign_job', { body: { booking_id: job.booking_id, crew_id: teamB.crew_id } }));
    ok(
      await pro.POST('/api/v1/book_job', {
        body: {
          ...size,
          ...customer,
          frequency: 'weekly',
          start: '2026-11-27T09:00:00-05:00',
          customer_name: 'Di',
        },
      }),
    );
    ok(
      await pro.POST('/api/v1/book_job', {
        body: {
          ...size,
          ...customer,
          start: '2026-12-01T10:00:00-05:00',
          customer_name: 'Ed',
        },
      }),
    );
    // Two customers with an email: one reminded two days ahead, one asked for a review after.
    for (const [name, start] of [
      ['Gia', '2026-11-30T09:00:00-05:00'],
      ['Hal', '2026-12-02T15:00:00-05:00'],
    ] as const) {
      ok(
        await pro.POST('/api/v1/book_job', { body: { ...size, ...customer, start, customer_name: name, customer_email: `${name.toLowerCase()}@example.com` } }),
      );
    }
    // A day off past the series' horizon: the visit that day is skipped when the horizon rolls on.
    ok(await pro.POST('/api/v1/add_time_off', { body: { start: '2027-02-19', end: '2027-02-19', note: 'Holiday' } }));
    const spare = ok(await pro.POST('/api/v1/add_time_off', { body: { start: '2026-12-24', end: '2026-12-24' } }));
    ok(await pro.POST('/api/v1/remove_time_off', { body: { time_off_id: spare.time_off_id } }));

    // A customer on the book host: finds, books, checks, moves and cancels.
    const found = ok(await book.GET('/api/v1/find_cleaners', { params: { query: { zip: '10001', ...size } } }));
    expect(found.cleaners.map((c) => c.cleaner_id)).toContain(business.id);
    ok(await book.GET('/api/v1/available_times', { params: { query: { cleaner_id: business.id, ...size } } }));
    const booked = ok(
      await book.POST('/api/v1/book_cleaning', {
        body: {
          cleaner_id: business.id,
          start: '2026-11-24T13:00:00-05:00',
          ...size,
          customer_name: 'Ana Lopez',
          customer_email: 'ana@example.com',
          address: '12 Grove St, Apt 3',
          zip: '10001',
        },
      }),
    );
    expect(ok(await book.GET('/api/v1/booking_status', { params: { query: { manage_token: booked.manage_token } } })).status).toBe('booked');
    ok(await book.POST('/api/v1/reschedule_booking', { body: { manage_token: booked.manage_token, start: '2026-11-26T11:00:00-05:00' } }));
    expect(ok(await book.GET('/api/v1/my_bookings')).bookings).toEqual([]);
    ok(await book.POST('/api/v1/cancel_booking', { body: { manage_token: booked.manage_token } }));
    // A time held while the user decides, then let go; the business pencils one in and lets it go too.
    const asAna = { 'X-User-Email': 'ana@example.com' };
    const held = ok(
      await book.POST('/api/v1/hold_time', { body: { cleaner_id: business.id, start: '2026-11-27T09:00:00-05:00', ...size, minutes: 5 }, headers: asAna }),
    );
    expect(ok(await book.POST('/api/v1/release_hold', { body: { hold_id: held.hold_id }, headers: asAna })).status).toBe('released');
    const pencilled = ok(await pro.POST('/api/v1/hold_time', { body: { ...size, start: '2026-11-27T13:00:00-05:00', lead_id: direct.lead_id } }));
    expect(ok(await pro.POST('/api/v1/release_hold', { body: { hold_id: pencilled.hold_id } })).status).toBe('released');

    // The business reads its schedule and reports, and reports a no-show once the job began.
    expect(ok(await pro.GET('/api/v1/schedule')).jobs.length).toBeGreaterThan(0);
    ok(await pro.GET('/api/v1/follow_ups_due'));
    // The client list finds the job's customer; their history and the owner's notes read back typed.
    const client = ok(await pro.GET('/api/v1/list_clients', { params: { query: { search: job.customer.name, limit: 5 } } })).clients[0]!;
    ok(await pro.POST('/api/v1/update_client_notes', { body: { client_id: client.client_id, notes: 'Side door.' } }));
    expect(ok(await pro.GET('/api/v1/client_history', { params: { query: { client_id: client.client_id } } })).client.notes).toBe('Side door.');
    // On the morning of the job the crew leaves: the customer is told once.
    clock.now = new Date('2026-11-24T13:30:00Z');
    expect(ok(await pro.POST('/api/v1/notify_on_my_way', { body: { booking_id: job.booking_id, eta_minutes: 30 } })).queued).toBe(true);
    clock.now = new Date('2026-11-24T16:00:00Z');
    expect(ok(await pro.POST('/api/v1/report_no_show', { body: { booking_id: job.booking_id } })).status).toBe('no_show');
    ok(await pro.POST('/api/v1/remove_crew', { body: { crew_id: teamB.crew_id, reassign_to: firstCrew } }));
    expect(ok(await pro.GET('/api/v1/pipeline', { params: { query: { month: '2026-11' } } })).month).toBe('2026-11');
    await propertyWeek(pro, book, business.id);

    // A week on: the series' horizon rolls forward, a follow-up and today's jobs come due.
    clock.now = new Date('2026-12-01T12:00:00Z');
    await extendSeries(t.db, clock.now);
    expect(await sendDueCustomerMessages(t.db, { bookingUrl: bookUrl }, clock.now)).toEqual({ reminders: 1, reviewRequests: 1 });
    await webhookWeek(pro, clock);
    const events: FeedEvent[] = [];
    for (let since = 0, more = true; more;) {
      const page = ok(await pro.GET('/api/v1/updates', { params: { query: { since } } }));
      events.push(...page.events);
      ({ cursor: since, more } = page);
    }

    return { called: [...called].sort(), events };
  }
}

/**
 * The business's CRM on a webhook: it fails five times in a row (the feed says it is failing),
 * answers again (recovered), then answers 410 Gone (removed). Every webhook operation is called.
 */
async function webhookWeek(pro: ReturnType<typeof createClient<ProPaths>>, at: { now: Date }): Promise<void> {
  const receiver = await new Receiver().start();
  const sender = createWebhookSender({ allowLoopback: true, timeoutMs: 2000 });
  const worker = webhookWorker(t.db, { sender, sealer: TEST_KEY_SEALER, clock: () => at.now, logger: createLogger('typed-hooks', 'silent'), wake: () => {} });
  const deliver = async () => {
    await worker.run(at.now);
    await worker.drain!();
  };
  try {
    const spare = ok(await pro.POST('/api/v1/add_webhook', { body: { url: `${receiver.url}/spare` } }));
    ok(await pro.POST('/api/v1/remove_webhook', { body: { webhook_id: spare.webhook_id } }));
    const hook = ok(await pro.POST('/api/v1/add_webhook', { body: { url: receiver.url, kinds: ['booking.created'] } }));
    ok(await pro.POST('/api/v1/update_webhook', { body: { webhook_id: hook.webhook_id, kinds: [] } }));
    receiver.secrets = [ok(await pro.POST('/api/v1/rotate_webhook_secret', { body: { webhook_id: hook.webhook_id } })).secret];
    expect(ok(await pro.POST('/api/v1/test_webhook', { body: { webhook_id: hook.webhook_id } })).received).toBe(true);
    const customer = { bedrooms: 2, bathrooms: 1, customer_name: 'Flo', customer_phone: '212 555 0100', address: '1 Main St', zip: '10001' };
    ok(await pro.POST('/api/v1/book_job', { body: { ...customer, start: '2026-12-02T09:00:00-05:00' } }));
    receiver.script = [500, 500, 500, 500, 500];
    for (let i = 0; i < 5; i++) {
      await deliver();
      at.now = new Date(at.now.getTime() + 2 * 3600_000); // past the longest wait between tries
    }
    expect(ok(await pro.GET('/api/v1/list_webhooks')).webhooks[0]!.state).toBe('failing');
    await deliver(); // it answers: the job, the failing notice, then the recovery
    receiver.script = [410];
    ok(await pro.POST('/api/v1/book_job', { body: { ...customer, start: '2026-12-02T13:00:00-05:00', customer_name: 'Gus' } }));
    await deliver();
    expect(ok(await pro.GET('/api/v1/list_webhooks')).webhooks).toEqual([]);
  } finally {
    sender.close();
    await receiver.stop();
  }
}

/**
 * A host's rental whose Vrbo calendar (served on this machine) lists three stays: two get their
 * turnovers, one window has no crew free; then one stay moves, one is gone, and the calendar fails.
 * Then a host asks for turnovers of another rental from the book host: proposed to the business.
 */
async function propertyWeek(pro: ReturnType<typeof createClient<ProPaths>>, book: ReturnType<typeof createClient<BookPaths>>, cleanerId: string) {
  const cal = await new CalendarServer().start();
  try {
    const path = '/vrbo.ics';
    const url = cal.serve(path, {
      body: calendar(VRBO_PRODID, [
        vrboStay('v1', '2026-12-14', '2026-12-16'),
        vrboStay('v2', '2026-12-16', '2026-12-18'),
        vrboStay('v3', '2026-12-20', '2026-12-21'),
      ]),
    });
    ok(await pro.POST('/api/v1/add_time_off', { body: { start: '2026-12-16', end: '2026-12-16', note: 'Closed' } }));
    const house = { name: 'Lake cabin', address: '3 Shore Rd', zip: '10001', bedrooms: 2, bathrooms: 1, host_name: 'Hal', host_email: 'hal@example.com' };
    const added = ok(await pro.POST('/api/v1/add_property', { body: { ...house, calendar_urls: [url] } }));
    const synced = ok(await pro.POST('/api/v1/sync_property', { body: { property_id: added.property_id } }));
    expect(synced.stays.map((s) => s.clean)).toEqual(['needs_attention', 'booked', 'booked']);
    cal.serve(path, { body: calendar(VRBO_PRODID, [vrboStay('v1', '2026-12-14', '2026-12-16'), vrboStay('v2-new', '2026-12-16', '2026-12-19')]) });
    ok(await pro.POST('/api/v1/sync_property', { body: { property_id: added.property_id } }));
    cal.serve(path, { status: 500, body: 'down' });
    ok(await pro.POST('/api/v1/sync_property', { body: { property_id: added.property_id } }));
    expect(ok(await pro.GET('/api/v1/list_properties')).properties[0]!.feeds[0]!.outcome).toBe('failing');
    ok(await pro.POST('/api/v1/update_property', { body: { property_id: added.property_id, checkin_time: '16:00' } }));
    ok(await pro.POST('/api/v1/remove_property', { body: { property_id: added.property_id, cancel_turnovers: true } }));
    const asked = ok(
      await book.POST('/api/v1/request_turnovers', {
        body: {
          cleaner_id: cleanerId,
          name: 'Dune house',
          address: '5 Shore Rd',
          zip: '10001',
          bedrooms: 2,
          bathrooms: 1,
          calendar_urls: [url],
          customer_name: 'Hal',
          customer_email: 'hal@example.com',
        },
      }),
    );
    expect([asked.mode, asked.manage_url]).toEqual(['propose', expect.stringMatching(/\/rental\//)]);
  } finally {
    await cal.stop();
  }
}

describe('a typed client (openapi-typescript + openapi-fetch) of both hosts', () => {
  it('calls every operation of both hosts over HTTP', async () => {
    const { called } = await everyOperation();
    const proDoc = (await (await fetch(`${proUrl}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    const bookDoc = (await (await fetch(`${bookUrl}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    const published = [...Object.keys(proDoc.paths).map((p) => `pro ${p}`), ...Object.keys(bookDoc.paths).map((p) => `book ${p}`)];
    expect(published).toHaveLength(PRO_DESK_OPERATIONS.length + BOOKING_OPERATIONS.length);
    expect(called).toEqual(published.sort());
  });

  it('reads every field of every kind of updates event through the generated types', async () => {
    const { events } = await everyOperation();
    for (const e of events) {
      const { seq, kind, at, message, ...rest } = e;
      expect([kind, typeof seq, typeof at, typeof message]).toEqual([kind, 'number', 'string', 'string']);
      expect([kind, ownFields(e)]).toEqual([kind, rest]);
    }
  });
});

// Each event the feed gives matches its own kind's schema exactly, with no field it does not
// declare and none missing; every kind the feed can write turns up in the weeks above, so a
// kind added without its schema (or its schema without a writer here) fails.
describe('updates events, kind by kind', () => {
  it('are each of a declared kind and match that kind’s schema exactly, and every declared kind turns up', async () => {
    const { events } = await everyOperation();
    const ajv = new Ajv({ strict: true, allErrors: true, strictTypes: false });
    const declared = new Set<string>(EVENT_KINDS);
    const validators = new Map<string, ValidateFunction>(EVENT_KINDS.map((k) => [k, ajv.compile(toJsonSchema(eventSchemaOf(k)))]));
    for (const e of events) {
      expect([e.kind, declared.has(e.kind)]).toEqual([e.kind, true]);
      const valid = validators.get(e.kind)!;
      expect([e.kind, valid(e), valid.errors ?? null]).toEqual([e.kind, true, null]);
    }
    expect([...new Set(events.map((e) => e.kind))].sort()).toEqual([...EVENT_KINDS].sort());
  });

  it('shows a move stored before and_following was a boolean as a boolean, with the visits it moved', async () => {
    const { pro, apiKey } = await createBusiness(t.db, {
      name: 'Old Rows',
      timezone: 'America/New_York',
      service_zips: ['10001'],
      weekly_hours: DEFAULT_WEEKLY_HOURS,
    });
    const old = {
      booking_id: 'bk_old',
      series_id: 'ser_old',
      from: '2026-11-24T09:00:00-05:00',
      to: '2026-11-25T09:00:00-05:00',
      label: 'Wed, Nov 25, 9:00 AM EST',
    };
    const payload = { ...old, and_following: 3, customer_name: 'Ana', rescheduled_by: 'pro', crew_id: 'crew_x', crew_name: 'Team', message: 'Moved.' };
    await appendEvent(t.db, pro.id, { kind: 'booking.rescheduled', payload, at: clock.now });
    const client = createClient<ProPaths>({ baseUrl: proUrl, headers: { Authorization: `Bearer ${apiKey}` } });
    const [event] = ok(await client.GET('/api/v1/updates', { params: { query: { since: 0 } } })).events;
    expect(event).toMatchObject({ kind: 'booking.rescheduled', and_following: true, visits_moved: 4 });
  });
});
