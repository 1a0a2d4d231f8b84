import { createBusiness } from '@frontdesk/use-cases';
import { KeySealer } from '@frontdesk/oauth';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import request from 'supertest';
import { flatten, readDevDatabase } from '@frontdesk/config';
import { createDatabase, createDb, dropDatabase, migrateToLatest, resolveDatabase } from '@frontdesk/db';
import { DEFAULT_WEEKLY_HOURS, startsOf } from '@frontdesk/domain';
import { createLogger } from '@frontdesk/http';
import { createProDeskApp } from '@frontdesk/pro-desk';
import { createBookingApp } from '@frontdesk/booking';

/**
 * `pnpm examples`: runs one realistic week of a cleaning business through both hosts on a
 * scratch database, and keeps the first answer of every operation as its example in
 * /openapi.json (services/<host>/src/operations/examples.json), and the first body of every
 * write as its request example (request-examples.json). Tests check each example against its
 * operation's schema, so a stale example fails the suite.
 */
async function main(): Promise<void> {
  const root = resolve(__dirname, '..');
  const server = await resolveDatabase(readDevDatabase(flatten(process.env), root));
  const admin = server.url;
  const name = `fd_examples_${Date.now().toString(36)}`;
  const db = createDb(await createDatabase(admin, name), { maxConnections: 4 });
  try {
    await migrateToLatest(db);
    const clock = { now: new Date('2026-11-23T12:00:00Z') }; // Monday 07:00 in New York
    const logger = createLogger('examples', 'silent');
    const config = {
      publicUrl: 'https://book.example',
      proDeskUrl: 'https://desk.example',
      bookingUrl: 'https://book.example',
      publicSharedKey: 'fdpub_example',
      mcpAllowedOrigins: [],
      keySealer: new KeySealer(randomBytes(32)),
    };
    const proApp = createProDeskApp({ db, config: { ...config, publicUrl: 'https://desk.example' }, logger, clock: () => clock.now });
    const bookApp = createBookingApp({ db, config, logger, clock: () => clock.now });
    const pro = request(proApp.app);
    let proAgent = pro;
    const book = request(bookApp.app);
    const registry = { pro: proApp.operations, book: bookApp.operations };
    const { pro: business, apiKey } = await createBusiness(db, {
      name: 'Sparkle & Shine Cleaning',
      timezone: 'America/New_York',
      service_zips: ['10001', '10002'],
      phone: '(212) 555-0142',
      email: 'hello@sparkle-shine.example',
      website: 'https://sparkle-shine.example',
      weekly_hours: DEFAULT_WEEKLY_HOURS,
    });
    const examples = { pro: {} as Record<string, unknown>, book: {} as Record<string, unknown> };
    const requestExamples = { pro: {} as Record<string, unknown>, book: {} as Record<string, unknown> };
    const call = async (
      host: 'pro' | 'book',
      op: string,
      input: Record<string, unknown> = {},
      method: 'GET' | 'POST' = 'GET',
      headers: Record<string, string> = {},
    ) => {
      const agent = host === 'pro' ? proAgent : book;
      const auth = host === 'pro' ? `Bearer ${apiKey}` : 'Bearer fdpub_example';
      const req = method === 'GET' ? agent.get(`/api/v1/${op}`).query(input) : agent.post(`/api/v1/${op}`).send(input);
      const res = await req.set('Authorization', auth).set('X-Client-Name', 'Claude').set(headers);
      if (res.status !== 200) throw new Error(`${op} answered ${res.status}: ${JSON.stringify(res.body)}`);
      examples[host][op] ??= res.body;
      if (method === 'POST') requestExamples[host][op] ??= input;
      return res.body;
    };
    const size = { bedrooms: 3, bathrooms: 2 };
    await call('pro', 'my_business');
    await call('pro', 'quote_job', { ...size, add_ons: 'oven' });
    const open = await call('pro', 'open_times', { ...size, days: 2 });
    const lead = await call('pro', 'log_lead', { source: 'marketplace_1', lead_ref: 'MK-1042', lead_cost: 28, zip: '10001', ...size }, 'POST');
    const customer = { customer_name: 'Ana Lopez', customer_phone: '(212) 555-0199', address: '12 Grove St, Apt 3', zip: '10001' };
    const job = await call('pro', 'book_job', { ...size, ...customer, lead_id: lead.lead_id, start: startsOf(open.open_times)[0] }, 'POST');
    const far = await call('pro', 'log_lead', { source: 'marketplace_2', lead_ref: 'TT-88', lead_cost: 35, zip: '07030', bedrooms: 2, bathrooms: 1 }, 'POST');
    await call(
      'pro',
      'flag_bad_lead',
      { lead_id: far.lead_id, reason: 'out_of_area', evidence: ['2026-11-23: the customer confirmed the home is in Hoboken.'] },
      'POST',
    );
    const found = await call('book', 'find_cleaners', { zip: '10001', bedrooms: 2, bathrooms: 1 });
    const times = await call('book', 'available_times', { cleaner_id: business.id, bedrooms: 2, bathrooms: 1 });
    const booked = await call(
      'book',
      'book_cleaning',
      {
        cleaner_id: found.cleaners[0].cleaner_id,
        start: startsOf(times.open_times)[1],
        bedrooms: 2,
        bathrooms: 1,
        customer_name: 'Sam Lee',
        customer_email: 'sam@example.com',
        address: '40 W 20th St',
        zip: '10001',
        expected_total: times.total,
      },
      'POST',
    );
    // A time held while the user thinks it over, then let go when they decline.
    const sam = { 'X-User-Email': 'sam@example.com' };
    const held = await call('book', 'hold_time', { cleaner_id: business.id, start: startsOf(times.open_times).at(-1), bedrooms: 2, bathrooms: 1 }, 'POST', sam);
    await call('book', 'release_hold', { hold_id: held.hold_id }, 'POST', sam);
    await call('book', 'booking_status', { manage_token: booked.manage_token });
    await call('book', 'reschedule_booking', { manage_token: booked.manage_token, start: startsOf(times.open_times)[4] }, 'POST');
    await call('book', 'my_bookings');
    // The business pencils in a time for its lead while waiting for the answer.
    const pencilled = await call('pro', 'hold_time', { ...size, lead_id: lead.lead_id, start: startsOf(open.open_times).at(-1), minutes: 120 }, 'POST');
    await call('pro', 'schedule');
    await call('pro', 'release_hold', { hold_id: pencilled.hold_id }, 'POST');
    await call('pro', 'updates');
    const followUp = await call(
      'pro',
      'log_lead',
      { source: 'website', customer_first_name: 'Mia', contact: 'mia@example.com', zip: '10002', bedrooms: 1, bathrooms: 1 },
      'POST',
    );
    clock.now = new Date(clock.now.getTime() + 26 * 3600_000);
    await call('pro', 'follow_ups_due');
    await call('pro', 'update_lead', { lead_id: followUp.lead_id, contacted: true }, 'POST');
    await call('book', 'cancel_booking', { manage_token: booked.manage_token }, 'POST');
    clock.now = new Date(Date.parse(job.end) + 3600_000);
    await call('pro', 'report_no_show', { booking_id: job.booking_id }, 'POST');
    const later = await call('pro', 'open_times', { ...size, days: 3 });
    const toCancel = await call('pro', 'book_job', { ...size, ...customer, customer_name: 'Lee Park', start: startsOf(later.open_times)[0] }, 'POST');
    await call('pro', 'cancel_job', { booking_id: toCancel.booking_id }, 'POST');
    await call('pro', 'pipeline', { month: '2026-11' });
    // The business sets itself up: a day off with a job booked in it, then new prices and hours.
    const kim = { ...customer, customer_name: 'Kim Cho', customer_email: 'kim@example.com' };
    const kept = await call('pro', 'book_job', { ...size, ...kim, start: startsOf(later.open_times)[0] }, 'POST');
    // Kim gave an email: the business asks for the new time to be sent to her.
    const moved = await call('pro', 'reschedule_job', { booking_id: kept.booking_id, start: startsOf(later.open_times)[4], notify_customer: true }, 'POST');
    // A weekly client away for two weeks: the plan skips them and carries on after.
    const weekly = await call(
      'pro',
      'book_job',
      { ...size, ...customer, customer_name: 'Ray Diaz', frequency: 'weekly', skip_conflicts: true, start: startsOf(later.open_times).at(-1) },
      'POST',
    );
    await call('pro', 'pause_series', { booking_id: weekly.series.visits[1].booking_id, weeks: 2 }, 'POST');
    const day = kept.start.slice(0, 10);
    const dayOff = await call('pro', 'add_time_off', { start: day, end: day, note: 'Family day' }, 'POST');
    await call('pro', 'remove_time_off', { time_off_id: dayOff.time_off_id }, 'POST');
    await call('pro', 'update_business', { prices: { base: 70, pets_fee: 20 }, working_hours: { saturday: [] }, min_notice_hours: 24 }, 'POST');
    // A second crew: its own Saturday hours, a job given to it, then it goes and its job comes back.
    const crew = await call('pro', 'add_crew', { name: 'Team B', working_hours: { saturday: ['09:00-13:00'] } }, 'POST');
    await call('pro', 'update_crew', { crew_id: crew.crew_id, name: 'Team Bea' }, 'POST');
    const first = (await call('pro', 'my_business')).crews[0];
    await call('pro', 'assign_job', { booking_id: kept.booking_id, crew_id: crew.crew_id }, 'POST');
    await call('pro', 'remove_crew', { crew_id: crew.crew_id, reassign_to: first.crew_id }, 'POST');
    // The client list: a client found by part of a phone number, their history, a note kept about them.
    const clients = await call('pro', 'list_clients', { search: '555-0199' });
    const client = clients.clients[0].client_id;
    await call('pro', 'client_history', { client_id: client });
    await call('pro', 'update_client_notes', { client_id: client, notes: 'Likes the same crew. The cat hides under the bed: keep the door shut.' }, 'POST');
    // A webhook to the business's own CRM: listed, narrowed, its secret rotated, tested (the
    // example receiver does not exist, so the test says it could not be reached), removed.
    const hook = await call('pro', 'add_webhook', { url: 'https://crm.sparkle-shine.example/front-desk' }, 'POST');
    await call('pro', 'list_webhooks');
    await call('pro', 'update_webhook', { webhook_id: hook.webhook_id, kinds: ['booking.created', 'booking.cancelled', 'booking.rescheduled'] }, 'POST');
    await call('pro', 'rotate_webhook_secret', { webhook_id: hook.webhook_id }, 'POST');
    await call('pro', 'test_webhook', { webhook_id: hook.webhook_id }, 'POST');
    await call('pro', 'remove_webhook', { webhook_id: hook.webhook_id }, 'POST');
    // On the morning of Kim's cleaning the crew leaves for it: she is told once, with the ETA.
    clock.now = new Date(Date.parse(moved.start) - 45 * 60_000);
    await call('pro', 'notify_on_my_way', { booking_id: kept.booking_id, eta_minutes: 30 }, 'POST');
    // A host's rental whose Airbnb calendar lists two stays back to back. The calendar is served on
    // this machine, which only a host on plain http may read (the webhooks' outbound rule), so the
    // property's calls go to the same app on http.
    const today = clock.now.toISOString().slice(0, 10).replaceAll('-', '');
    const dayAfter = (n: number) => new Date(Date.parse(clock.now.toISOString().slice(0, 10)) + n * 86_400_000).toISOString().slice(0, 10).replaceAll('-', '');
    const stay = (uid: string, from: number, to: number) =>
      `BEGIN:VEVENT\r\nDTSTAMP:${today}T000000Z\r\nDTSTART;VALUE=DATE:${dayAfter(from)}\r\nDTEND;VALUE=DATE:${dayAfter(to)}\r\nSUMMARY:Reserved\r\nUID:${uid}@airbnb.com\r\nEND:VEVENT\r\n`;
    const ics = `BEGIN:VCALENDAR\r\nPRODID:-//Airbnb Inc//Hosting Calendar 1.0//EN\r\nVERSION:2.0\r\n${stay('a1', 1, 3)}${stay('a2', 3, 6)}END:VCALENDAR\r\n`;
    const calendars = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/calendar' }).end(ics));
    await new Promise<void>((done) => calendars.listen(0, '127.0.0.1', done));
    const calendarUrl = `http://127.0.0.1:${(calendars.address() as AddressInfo).port}/calendar.ics`;
    proAgent = request(createProDeskApp({ db, config: { ...config, publicUrl: 'http://desk.example' }, logger, clock: () => clock.now }).app);
    const house = {
      name: 'Harbor loft',
      address: '8 Water St',
      zip: '10002',
      bedrooms: 2,
      bathrooms: 1,
      host_name: 'Nora Quinn',
      host_email: 'nora@example.com',
      calendar_urls: [calendarUrl],
    };
    const loft = await call('pro', 'add_property', house, 'POST');
    await call('pro', 'sync_property', { property_id: loft.property_id }, 'POST');
    await call('pro', 'list_properties');
    await call('pro', 'update_property', { property_id: loft.property_id, checkout_time: '10:00' }, 'POST');
    await call('pro', 'remove_property', { property_id: loft.property_id, cancel_turnovers: true }, 'POST');
    // The host asks the same business from the book host instead.
    const { host_name: hostName, host_email: hostEmail, ...rental } = house;
    await call('book', 'request_turnovers', { cleaner_id: business.id, ...rental, customer_name: hostName, customer_email: hostEmail }, 'POST');
    calendars.close();
    proAgent = pro;
    // Every operation of the registry has an example answer, and every write an example body.
    const missing = (['pro', 'book'] as const).flatMap((host) =>
      registry[host].flatMap((op) => [
        ...(op.name in examples[host] ? [] : [`${op.name} (no answer)`]),
        ...(op.method === 'GET' || op.name in requestExamples[host] ? [] : [`${op.name} (no request body)`]),
      ]),
    );
    if (missing.length) throw new Error(`No example for ${missing.join(', ')}: add a call to the week scripts/examples.ts runs.`);
    for (const host of ['pro', 'book'] as const) {
      const dir = host === 'pro' ? 'pro-desk' : 'booking';
      writeFileSync(resolve(root, `services/${dir}/src/operations/examples.json`), `${JSON.stringify(examples[host], null, 2)}\n`);
      writeFileSync(resolve(root, `services/${dir}/src/operations/request-examples.json`), `${JSON.stringify(requestExamples[host], null, 2)}\n`);
      process.stdout.write(`${dir}: ${Object.keys(examples[host]).length} examples\n`);
    }
  } finally {
    await db.destroy();
    await dropDatabase(admin, name);
    await server.stop();
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
