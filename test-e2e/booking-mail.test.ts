import type { Server } from 'node:http';
import { simpleParser } from 'mailparser';
import ICAL from 'ical.js';
import { enqueueMail, freePort } from '@frontdesk/db';
import { createBusiness } from '@frontdesk/use-cases';
import { createTestDatabase, type TestDatabase } from '@frontdesk/db/testing';
import { closeServer, listen } from '@frontdesk/http';
import { createBookingApp } from '@frontdesk/booking';
import { createProDeskApp } from '@frontdesk/pro-desk';
import { DEFAULT_WEEKLY_HOURS, ERASED_MAIL_SUBJECT } from '@frontdesk/domain';
import { TEST_KEY_SEALER, TEST_RATE_LIMITS } from '@frontdesk/dev-env/both-hosts';
import { outboxDrained, startMailSink, type Received } from './mail-sink';
import { startsOf } from '@frontdesk/domain';

jest.setTimeout(60_000);

// Mail people expect, read off a real SMTP server the outbox worker delivers to: a customer's
// booking, move and cancellation on the book host are confirmed to them (their page's link,
// the calendar file) and told to the owner; the business's own bookings and cancellations,
// and a platform lead's customer, get nothing; no mail's words reach the log.
let t: TestDatabase;
const servers: Server[] = [];
let sink: Awaited<ReturnType<typeof startMailSink>> | undefined;
let logLines: string[] = [];
let inbox: Received[] = [];
let pro = '';
let book = '';
const PUBLIC_KEY = 'fdpub_mail_public_key';
const asPublic = { authorization: `Bearer ${PUBLIC_KEY}` };

beforeAll(async () => {
  t = await createTestDatabase();
  sink = await startMailSink(t.db, 'mail');
  ({ inbox, logLines } = sink);
  const logger = sink.logger;
  const [proPort, bookPort] = [await freePort(), await freePort()];
  pro = `http://127.0.0.1:${proPort}`;
  book = `http://127.0.0.1:${bookPort}`;
  const common = {
    proDeskUrl: pro,
    bookingUrl: book,
    publicSharedKey: PUBLIC_KEY,
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

type Json = Record<string, any>;
const json = async (res: Response) => (await res.json()) as Json;
const post = (url: string, body: object, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

/** The parsed mails the SMTP server received for `to` since `after` (an inbox length). */
async function mailsTo(to: string, after = 0) {
  await outboxDrained(t.db);
  return Promise.all(
    inbox
      .slice(after)
      .filter((m) => m.to === to)
      .map((m) => simpleParser(m.raw)),
  );
}
async function oneMailTo(to: string, after: number) {
  const mails = await mailsTo(to, after);
  expect(mails.map((m) => m.subject)).toHaveLength(1);
  return mails[0]!;
}

/** The one event of a mailed calendar file: its start, UID and status. */
function eventOf(ics: string) {
  const event = new ICAL.Component(ICAL.parse(ics)).getFirstSubcomponent('vevent')!;
  return {
    start: (event.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().getTime(),
    uid: event.getFirstPropertyValue('uid') as string,
    status: event.getFirstPropertyValue('status') as string,
  };
}
const icsOf = (mail: Awaited<ReturnType<typeof simpleParser>>) => {
  const files = mail.attachments.filter((a) => a.filename === 'cleaning.ics');
  expect(files).toHaveLength(1);
  expect(files[0]!.contentType).toBe('text/calendar');
  return files[0]!.content.toString('utf8');
};

let n = 0;
/** A business on its own: its API key, id, owner (sign-in) address and public contact address. */
async function business(setup: { ownerEmail?: string | null } = {}) {
  n += 1;
  const owner = setup.ownerEmail === undefined ? `owner${n}@biz.example` : setup.ownerEmail;
  const made = await createBusiness(t.db, {
    name: `Mail Clean ${n}`,
    timezone: 'America/New_York',
    service_zips: ['10001'],
    weekly_hours: DEFAULT_WEEKLY_HOURS,
    email: `hello${n}@biz.example`,
    owner_email: owner,
  });
  return { key: made.apiKey, id: made.pro.id, owner, contact: `hello${n}@biz.example`, auth: { authorization: `Bearer ${made.apiKey}` } };
}

/** Open starts a few days ahead, for a 2-bedroom job. */
async function openStarts(cleanerId: string, daysAhead = 3): Promise<string[]> {
  const date = new Date(Date.now() + daysAhead * 86_400_000).toISOString().slice(0, 10);
  const q = new URLSearchParams({ cleaner_id: cleanerId, bedrooms: '2', bathrooms: '1', date, days: '3' });
  const times = await json(await fetch(`${book}/api/v1/available_times?${q.toString()}`, { headers: asPublic }));
  return startsOf(times.open_times as { starts: string[] }[]);
}

const customerBooking = (cleanerId: string, start: string, email: string, extra: object = {}) => ({
  cleaner_id: cleanerId,
  start,
  bedrooms: 2,
  bathrooms: 1,
  address: '9 Elm St',
  zip: '10001',
  customer_name: 'Dana Park',
  customer_email: email,
  ...extra,
});

describe('mail about bookings', () => {
  it("confirms a customer's booking with a working link to their page and the booking as a calendar file, and tells the owner", async () => {
    const biz = await business();
    const customer = 'dana.book@example.com';
    const [slot] = await openStarts(biz.id);
    const seen = inbox.length;
    const res = await post(`${book}/api/v1/book_cleaning`, customerBooking(biz.id, slot!, customer), asPublic);
    expect(res.status).toBe(200);
    const booked = await json(res);

    const mail = await oneMailTo(customer, seen);
    expect(mail.subject).toContain(`Mail Clean ${n}`);
    const link = new RegExp(`${book}/manage/([A-Za-z0-9_-]{43})`).exec(mail.text!);
    expect(link?.[1]).toBe(booked.manage_token);
    // The link works: the page opens, and booking_status answers for its token.
    const page = await fetch(link![0]);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('9 Elm St');
    const status = await json(await fetch(`${book}/api/v1/booking_status?manage_token=${link![1]}`, { headers: asPublic }));
    expect(status.booking_id).toBe(booked.booking_id);
    const event = eventOf(icsOf(mail));
    expect(event.start).toBe(Date.parse(booked.start as string));
    expect(event.uid).toBe(`${booked.booking_id}@${new URL(book).host}`);
    expect(event.status).toBe('CONFIRMED');

    // The owner hears of it at the sign-in address, not the public contact one; no link to the customer's page.
    const notice = await oneMailTo(biz.owner!, seen);
    expect(notice.subject).toMatch(/^New booking: Dana Park, /);
    expect(notice.text).toContain(`Email: ${customer}`);
    // Where, which crew, and the way to the schedule; the setting named as the dashboard names it.
    expect(notice.text).toContain('Address: 9 Elm St, ');
    expect(notice.text).toMatch(/\nCrew: \S/);
    expect(notice.text).toContain(`Your schedule: ${pro}/dashboard/schedule`);
    expect(notice.text).not.toMatch(/update_business|email_me_customer_changes/);
    expect(notice.text).not.toContain('/manage/');
    expect(await mailsTo(biz.contact, seen)).toHaveLength(0);

    // The confirmation carried a credential: once delivered the outbox keeps neither its words nor its file.
    const kept = await t.db.selectFrom('outbox').selectAll().where('to_address', '=', customer).execute();
    expect(kept.map((m) => [m.subject, m.text_body, m.ics, m.sent_at !== null])).toEqual([[ERASED_MAIL_SUBJECT, '', null, true]]);
  });

  it("tells a series' customer it repeats, with its first visits", async () => {
    const biz = await business();
    const customer = 'sam.series@example.com';
    const [slot] = await openStarts(biz.id);
    const seen = inbox.length;
    const res = await post(`${book}/api/v1/book_cleaning`, customerBooking(biz.id, slot!, customer, { frequency: 'weekly', skip_conflicts: true }), asPublic);
    expect(res.status).toBe(200);
    const booked = await json(res);
    const visits = (booked.series.visits as { label: string }[]).map((v) => v.label);
    expect(visits.length).toBeGreaterThan(4);
    const mail = await oneMailTo(customer, seen);
    expect(mail.text).toContain('This cleaning repeats (weekly)');
    for (const label of visits.slice(0, 4)) expect(mail.text).toContain(`  - ${label}`);
    expect(mail.text).not.toContain(`  - ${visits[4]}`);
    expect(mail.text).toContain(`and ${visits.length - 4} more visit`);
    // The calendar file holds every visit booked so far, each with the visit's own UID.
    const events = new ICAL.Component(ICAL.parse(icsOf(mail))).getAllSubcomponents('vevent');
    expect(events.map((e) => (e.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().getTime())).toEqual(
      (booked.series.visits as { start: string }[]).map((v) => Date.parse(v.start)),
    );
    expect(new Set(events.map((e) => e.getFirstPropertyValue('uid'))).size).toBe(visits.length);
  });

  it("confirms a customer's move (the new time, a new calendar file) and cancellation to them and to the owner", async () => {
    const biz = await business({ ownerEmail: null }); // no sign-in address: the business's contact address hears
    const customer = 'lee.moves@example.com';
    const starts = await openStarts(biz.id);
    const booked = await json(await post(`${book}/api/v1/book_cleaning`, customerBooking(biz.id, starts[0]!, customer), asPublic));
    await outboxDrained(t.db);

    let seen = inbox.length;
    const to = starts[starts.length - 1]!;
    const moved = await json(await post(`${book}/api/v1/reschedule_booking`, { manage_token: booked.manage_token, start: to }, asPublic));
    expect(moved.start).toBe(to);
    const moveMail = await oneMailTo(customer, seen);
    expect(moveMail.subject).toContain('Moved');
    expect(moveMail.text).toContain(moved.previous_label);
    expect(moveMail.text).toContain(moved.label);
    // Moved with the manage token: the mail carries the page it was moved from, so it is erased once delivered.
    expect(moveMail.text).toContain(`${book}/manage/${booked.manage_token}`);
    const keptMove = await t.db
      .selectFrom('outbox')
      .select(['subject', 'text_body'])
      .where('to_address', '=', customer)
      .where('subject', 'not like', 'Booked%')
      .execute();
    expect(keptMove.every((m) => m.subject === ERASED_MAIL_SUBJECT && m.text_body === '')).toBe(true);
    const movedEvent = eventOf(icsOf(moveMail));
    expect(movedEvent.start).toBe(Date.parse(to));
    expect(movedEvent.uid).toBe(`${booked.booking_id}@${new URL(book).host}`);
    expect((await oneMailTo(biz.contact, seen)).subject).toMatch(/^Booking moved: /);

    seen = inbox.length;
    const cancelled = await json(await post(`${book}/api/v1/cancel_booking`, { manage_token: booked.manage_token }, asPublic));
    expect(cancelled.status).toBe('cancelled');
    const cancelMail = await oneMailTo(customer, seen);
    expect(cancelMail.subject).toBe(`Cancelled: Mail Clean ${n}, ${moved.label}`);
    expect(cancelMail.text).toContain('is cancelled');
    expect(eventOf(icsOf(cancelMail)).status).toBe('CANCELLED');
    const notice = await oneMailTo(biz.contact, seen);
    expect(notice.subject).toMatch(/^Booking cancelled: /);
    expect(notice.text).toContain('Booking cancelled by the customer');
  });

  it('sends no owner notice once the business turns email_me_customer_changes off (REST), and shows the setting on both transports', async () => {
    const biz = await business();
    const before = await json(await fetch(`${pro}/api/v1/my_business`, { headers: biz.auth }));
    expect(before.email_me_customer_changes).toBe(true);
    const saved = await json(await post(`${pro}/api/v1/update_business`, { email_me_customer_changes: false }, biz.auth));
    expect(saved.email_me_customer_changes).toBe(false);
    const mcp = await json(
      await post(
        `${pro}/mcp`,
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'my_business', arguments: {} } },
        {
          ...biz.auth,
          accept: 'application/json, text/event-stream',
        },
      ),
    );
    expect(mcp.result.structuredContent.email_me_customer_changes).toBe(false);

    const customer = 'quiet.owner@example.com';
    const [slot] = await openStarts(biz.id);
    const seen = inbox.length;
    const booked = await json(await post(`${book}/api/v1/book_cleaning`, customerBooking(biz.id, slot!, customer), asPublic));
    await post(`${book}/api/v1/cancel_booking`, { manage_token: booked.manage_token }, asPublic);
    expect((await mailsTo(customer, seen)).map((m) => m.subject!.split(':')[0])).toEqual(['Booked', 'Cancelled']);
    expect(await mailsTo(biz.owner!, seen)).toHaveLength(0);
    expect(await mailsTo(biz.contact, seen)).toHaveLength(0);

    // Back on, by MCP: the next change is told again.
    const on = await json(
      await post(
        `${pro}/mcp`,
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'update_business', arguments: { email_me_customer_changes: true } } },
        { ...biz.auth, accept: 'application/json, text/event-stream' },
      ),
    );
    expect(on.result.structuredContent.email_me_customer_changes).toBe(true);
    const again = inbox.length;
    await post(`${book}/api/v1/book_cleaning`, customerBooking(biz.id, slot!, customer), asPublic);
    expect(await mailsTo(biz.owner!, again)).toHaveLength(1);
  });

  it("mails nothing to a platform lead's customer, to a customer of the business's own booking, or to a customer whose job the business cancels", async () => {
    const biz = await business();
    const seen = inbox.length;
    const nextStart = async () => (await openStarts(biz.id))[0]!; // asked afresh: each booking takes its time

    // A platform lead booked by the business: its customer never gets a link (nor any mail).
    const lead = await json(await post(`${pro}/api/v1/log_lead`, { source: 'marketplace_1', bedrooms: 2, bathrooms: 1, zip: '10001' }, biz.auth));
    const leadCustomer = 'lead.customer@example.com';
    const proBooking = (start: string, email: string, extra: object = {}) => ({
      bedrooms: 2,
      bathrooms: 1,
      start,
      customer_name: 'Pat Lead',
      customer_email: email,
      address: '1 Main St',
      zip: '10001',
      ...extra,
    });
    const leadJob = await post(`${pro}/api/v1/book_job`, proBooking(await nextStart(), leadCustomer, { lead_id: lead.lead_id }), biz.auth);
    expect(leadJob.status).toBe(200);

    // The business's own booking, then its cancellation: the business tells its customer.
    const ownCustomer = 'own.customer@example.com';
    const own = await json(await post(`${pro}/api/v1/book_job`, proBooking(await nextStart(), ownCustomer), biz.auth));
    expect((await post(`${pro}/api/v1/cancel_job`, { booking_id: own.booking_id }, biz.auth)).status).toBe(200);

    // A customer's own booking that the business cancels: confirmed once, never told of the cancellation.
    const bookCustomer = 'cancelled.by.business@example.com';
    const booked = await json(await post(`${book}/api/v1/book_cleaning`, customerBooking(biz.id, await nextStart(), bookCustomer), asPublic));
    expect((await post(`${pro}/api/v1/cancel_job`, { booking_id: booked.booking_id }, biz.auth)).status).toBe(200);

    expect(await mailsTo(leadCustomer, seen)).toHaveLength(0);
    expect(await mailsTo(ownCustomer, seen)).toHaveLength(0);
    expect((await mailsTo(bookCustomer, seen)).map((m) => m.subject!.split(':')[0])).toEqual(['Booked']);
    // The owner hears of the customer's booking only: the business's own moves are its own.
    expect((await mailsTo(biz.owner!, seen)).map((m) => m.subject!.split(':')[0])).toEqual(['New booking']);
  });

  it("mails a retried booking's customer the new link, since the first one stopped working", async () => {
    const biz = await business();
    const customer = 'retry.customer@example.com';
    const [slot] = await openStarts(biz.id);
    const key = 'retry-mail-0001';
    const seen = inbox.length;
    const first = await json(await post(`${book}/api/v1/book_cleaning`, customerBooking(biz.id, slot!, customer), { ...asPublic, 'Idempotency-Key': key }));
    const again = await json(await post(`${book}/api/v1/book_cleaning`, customerBooking(biz.id, slot!, customer), { ...asPublic, 'Idempotency-Key': key }));
    expect(again.booking_id).toBe(first.booking_id);
    expect(again.manage_token).not.toBe(first.manage_token);
    const mails = await mailsTo(customer, seen);
    expect(mails.map((m) => m.subject!.split(':')[0])).toEqual(['Booked', 'A new link for your booking']);
    expect(mails[1]!.text).toContain(`${book}/manage/${again.manage_token}`);
    expect((await fetch(`${book}/manage/${again.manage_token}`)).status).toBe(200);
    expect((await fetch(`${book}/manage/${first.manage_token}`)).status).toBe(404);
    expect(await mailsTo(biz.owner!, seen)).toHaveLength(1); // one booking, one notice
  });

  it('keeps every header on one line whatever the outbox holds: a name with line breaks never starts a header of its own', async () => {
    // As a notice about a name stored before names were refused their line breaks would be queued.
    const to = 'owner.lines@mail.example';
    const seen = inbox.length;
    await enqueueMail(t.db, {
      to,
      subject: 'New booking: Evil\r\nBcc: thief@evil.example\u2028X-Injected: 1\u0085Cc: other@evil.example\u202e, Tue, Nov 24',
      text: 'A customer booked.',
      now: new Date(),
    });
    const [mail] = await mailsTo(to, seen);
    expect(mail!.subject).toBe('New booking: Evil Bcc: thief@evil.example X-Injected: 1 Cc: other@evil.example , Tue, Nov 24');
    expect([...mail!.headers.keys()].filter((k) => ['bcc', 'cc', 'x-injected'].includes(k))).toEqual([]);
    expect(inbox.slice(seen).map((m) => m.to)).toEqual([to]);
  });

  it('never logs what a mail says', async () => {
    await outboxDrained(t.db);
    const log = logLines.join('');
    expect(log.length).toBeGreaterThan(1000);
    const mails = await Promise.all(inbox.map((m) => simpleParser(m.raw)));
    expect(mails.length).toBeGreaterThan(10);
    const said = new Set<string>();
    for (const m of mails) {
      said.add(m.subject!);
      for (const line of m.text!.split('\n')) if (line.trim().length > 24) said.add(line.trim());
      for (const token of m.text!.match(/[A-Za-z0-9_-]{43}/g) ?? []) said.add(token);
    }
    for (const words of said) expect({ words, logged: log.includes(words) }).toEqual({ words, logged: false });
  });
});
