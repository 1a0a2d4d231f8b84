import { simpleParser } from 'mailparser';
import { createDb, reminderCandidates, type Db } from '@frontdesk/db';
import { customerMessagesWorker } from '@frontdesk/workers';
import { bookCleaning, bothHostsPerFile, booking, newCleaner, type Hosts } from '@frontdesk/dev-env/both-hosts';
import { dashboardSession, type Harness } from '@frontdesk/dev-env/pro-desk';
import { startFreezableProxy } from './helpers';
import { outboxDrained, startMailSink, type Received } from './mail-sink';

jest.setTimeout(90_000);

// Reminders before a job and review requests after it, read off a real SMTP server that the
// outbox worker delivers to. Time is the hosts' shared clock, which the tests move; the
// messages worker is ticked at the clock's time, as a process's ticker would tick it.
const h: Hosts = bothHostsPerFile();
let sink: Awaited<ReturnType<typeof startMailSink>>;
let inbox: Received[] = [];
const LINKS = { bookingUrl: 'http://book.test' };
const HOUR = 3_600_000;

beforeAll(async () => {
  sink = await startMailSink(h.t.db, 'messages');
  inbox = sink.inbox;
});
afterAll(() => sink?.stop());

/** One tick of the messages worker at the clock's time, on the given pool (a process of its own). */
const tick = (db: Db = h.t.db) => customerMessagesWorker(db, LINKS).run(h.clock.now);
const at = (iso: string) => (h.clock.now = new Date(iso));

/** The parsed mails the SMTP server received for `to`. */
async function mailsTo(to: string) {
  await outboxDrained(h.t.db);
  // Headers as one line each (a long one is folded onto the next).
  return Promise.all(inbox.filter((m) => m.to === to).map(async (m) => ({ raw: m.raw.replace(/\r?\n[ \t]+/g, ' '), mail: await simpleParser(m.raw) })));
}
const subjectsTo = async (to: string) => (await mailsTo(to)).map((m) => m.mail.subject ?? '');

/** A business whose reminders (and review requests) are set as given. */
let owners = 0;
async function cleaner(settings: Record<string, unknown>) {
  const owner = `owner${(owners += 1)}@messages.example`;
  const c = await newCleaner(h, { owner_email: owner });
  await h.pro.post('/api/v1/update_business').set(c.auth).send(settings).expect(200);
  return { ...c, owner };
}

const proJob = (start: string, email: string, over: Record<string, unknown> = {}) => ({
  bedrooms: 2,
  bathrooms: 1,
  start,
  customer_name: 'Rae Kim',
  customer_email: email,
  address: '5 Birch Rd',
  zip: '10001',
  ...over,
});
async function bookJob(c: { auth: Record<string, string> }, body: object): Promise<{ booking_id: string }> {
  const res = await h.pro.post('/api/v1/book_job').set(c.auth).send(body);
  expect([res.status, res.body.error]).toEqual([200, undefined]);
  return res.body as { booking_id: string };
}

describe('the routine-message settings', () => {
  it('shows the defaults, takes both settings back in the same shapes, and refuses a link that is not https', async () => {
    const c = await newCleaner(h);
    const before = await h.pro.get('/api/v1/my_business').set(c.auth).expect(200);
    expect(before.body).toMatchObject({ customer_reminders: [24], review_request: null });
    const set = { customer_reminders: [2, 48], review_request: { link: 'https://g.page/r/sparkle/review', delay_hours: 3 } };
    await h.pro.post('/api/v1/update_business').set(c.auth).send(set).expect(200);
    const after = await h.pro.get('/api/v1/my_business').set(c.auth).expect(200);
    expect(after.body).toMatchObject({ customer_reminders: [48, 2], review_request: set.review_request });
    const http = await h.pro
      .post('/api/v1/update_business')
      .set(c.auth)
      .send({ review_request: { link: 'http://g.page/r/x', delay_hours: 3 } });
    expect(http.status).toBe(400);
    expect(http.body.error).toMatch(/review_request\.link/);
    for (const bad of [
      { customer_reminders: [0] },
      { customer_reminders: [169] },
      { customer_reminders: [1, 2, 3] },
      { review_request: { link: 'https://a.example', delay_hours: 73 } },
    ]) {
      const res = await h.pro.post('/api/v1/update_business').set(c.auth).send(bad);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(Object.keys(bad)[0]!);
    }
    expect(
      (
        await h.pro
          .post('/api/v1/update_business')
          .set(c.auth)
          .send({ customer_reminders: [24, 24] })
      ).status,
    ).toBe(400);
    await h.pro.post('/api/v1/update_business').set(c.auth).send({ customer_reminders: [], review_request: null }).expect(200);
    expect((await h.pro.get('/api/v1/my_business').set(c.auth)).body).toMatchObject({ customer_reminders: [], review_request: null });
  });
});

describe('reminders', () => {
  it('sends a job booked 25 hours ahead with a 26-hour reminder exactly one, at once, plain and with a one-click unsubscribe', async () => {
    const c = await cleaner({ customer_reminders: [26] });
    const to = 'rae.25h@example.com';
    const job = await bookJob(c, proJob('2026-11-24T08:00:00-05:00', to, { notes: 'Gate code 4411' }));
    await tick();
    h.clock.now = new Date(h.clock.now.getTime() + HOUR);
    await tick();
    await tick();
    const mails = await mailsTo(to);
    expect(mails).toHaveLength(1);
    const { raw, mail } = mails[0]!;
    expect(mail.subject).toMatch(/^Reminder: /);
    expect(mail.text).toContain('5 Birch Rd, 10001');
    expect(mail.text).toContain('Tue, Nov 24'); // in the business's zone
    expect(mail.text).toMatch(/8:00/);
    expect(mail.text).toContain('Before the crew comes');
    expect(mail.html).toContain('5 Birch Rd');
    expect(mail.html).not.toMatch(/<img|src=/i);
    expect(raw).toMatch(/List-Unsubscribe: <http:\/\/book\.test\/unsubscribe\/[A-Za-z0-9_-]{43}>/);
    expect(raw).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    // The owner's feed says it went.
    const feed = await h.pro.get('/api/v1/updates').set(c.auth).expect(200);
    const sent = (feed.body.events as { kind: string; booking_id?: string; hours_before?: number }[]).filter((e) => e.kind === 'reminder.sent');
    expect(sent).toEqual([expect.objectContaining({ booking_id: job.booking_id, hours_before: 26 })]);
    // No mail's words in the log.
    expect(sink.logLines.join('')).not.toContain('Birch');
  });

  it('sends none for a job booked within 12 hours of its start when its reminder is already past', async () => {
    const c = await cleaner({ customer_reminders: [24], min_notice_hours: 0 });
    const to = 'rae.soon@example.com';
    at('2026-11-23T14:00:00Z'); // 09:00 in New York
    const job = await bookJob(c, proJob('2026-11-23T15:00:00-05:00', to));
    await tick();
    at('2026-11-23T19:00:00Z');
    await tick();
    expect(await subjectsTo(to)).toEqual([]);
    // Judged once: the job is no longer looked at for that reminder.
    expect((await reminderCandidates(h.t.db, h.clock.now)).map((b) => b.id)).not.toContain(job.booking_id);
  });

  it('sends none for a job cancelled before its reminder is due', async () => {
    const c = await cleaner({ customer_reminders: [24] });
    const to = 'rae.cancelled@example.com';
    const job = await bookJob(c, proJob('2026-11-25T09:00:00-05:00', to));
    await h.pro.post('/api/v1/cancel_job').set(c.auth).send({ booking_id: job.booking_id }).expect(200);
    at('2026-11-24T14:01:00Z');
    await tick();
    at('2026-11-24T15:00:00Z');
    await tick();
    expect(await subjectsTo(to)).toEqual([]);
  });

  it('reminds a moved job at its new time only, and never twice when it is moved back', async () => {
    const c = await cleaner({ customer_reminders: [24] });
    const to = 'rae.moved@example.com';
    const job = await bookJob(c, proJob('2026-11-25T09:00:00-05:00', to));
    await h.pro.post('/api/v1/reschedule_job').set(c.auth).send({ booking_id: job.booking_id, start: '2026-11-26T10:00:00-05:00' }).expect(200);
    at('2026-11-24T14:01:00Z'); // the old time's reminder would be due now
    await tick();
    expect(await subjectsTo(to)).toEqual([]);
    at('2026-11-25T15:01:00Z'); // the new time's
    await tick();
    await tick();
    const mails = await mailsTo(to);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.mail.text).toContain('Thu, Nov 26');
    // Moved away and back to the same start: that start was already reminded of.
    at('2026-11-25T16:00:00Z');
    await h.pro.post('/api/v1/reschedule_job').set(c.auth).send({ booking_id: job.booking_id, start: '2026-11-27T10:00:00-05:00' }).expect(200);
    await tick();
    at('2026-11-25T17:00:00Z');
    await h.pro.post('/api/v1/reschedule_job').set(c.auth).send({ booking_id: job.booking_id, start: '2026-11-26T10:00:00-05:00' }).expect(200);
    await tick();
    expect(await mailsTo(to)).toHaveLength(1);
    // The owner sees on the job's page which message went, and for which start.
    const { cookie } = await dashboardSession({ ...h, api: h.pro } as unknown as Harness, c.owner);
    const page = (await h.pro.get(`/dashboard/jobs/${job.booking_id}`).set('Cookie', cookie).expect(200)).text.replace(/<\/?bdi>/g, '');
    expect(page).toMatch(/Messages to the customer/);
    expect(page.match(/Reminder \(24 h before\): emailed Wed, Nov 25, 10:01 AM EST, for Thu, Nov 26, 10:00 AM EST/g)).toHaveLength(1);
  });

  it('reminds each visit of a series once', async () => {
    const c = await cleaner({ customer_reminders: [24] });
    const to = 'rae.series@example.com';
    const made = await bookCleaning(h, booking(c.pro.id, { frequency: 'weekly', start: '2026-11-24T09:00:00-05:00', customer_email: to })).expect(200);
    const visits = (made.body.series.visits as { start: string }[]).slice(0, 3);
    expect(visits).toHaveLength(3);
    for (const v of visits) {
      h.clock.now = new Date(Date.parse(v.start) - 24 * HOUR + 60_000);
      await tick();
      await tick();
    }
    const subjects = await subjectsTo(to);
    const reminders = subjects.filter((s) => s.startsWith('Reminder: '));
    expect(reminders).toHaveLength(3);
    expect(new Set(reminders).size).toBe(3);
  });

  it("never reminds a platform lead's customer", async () => {
    const c = await cleaner({ customer_reminders: [24] });
    const to = 'pat.platform@example.com';
    const lead = await h.pro.post('/api/v1/log_lead').set(c.auth).send({ source: 'marketplace_1', bedrooms: 2, bathrooms: 1, zip: '10001' }).expect(200);
    await bookJob(c, proJob('2026-11-25T09:00:00-05:00', to, { lead_id: lead.body.lead_id }));
    at('2026-11-24T14:01:00Z');
    await tick();
    expect(await subjectsTo(to)).toEqual([]);
  });

  it('sends each reminder once when two processes tick together', async () => {
    const c = await cleaner({ customer_reminders: [24] });
    const emails = ['one.twin@example.com', 'two.twin@example.com', 'three.twin@example.com'];
    for (const [i, to] of emails.entries()) await bookJob(c, proJob(`2026-11-25T${String(9 + i * 3).padStart(2, '0')}:00:00-05:00`, to));
    const other = createDb(h.t.url, { maxConnections: 5 });
    try {
      at('2026-11-24T22:00:00Z');
      await Promise.all([tick(), tick(other), tick(), tick(other)]);
      await Promise.all([tick(other), tick()]);
    } finally {
      await other.destroy();
    }
    for (const to of emails) expect(await subjectsTo(to)).toHaveLength(1);
  });

  it('delays a reminder across a database outage over its due time, never doubling or dropping it', async () => {
    const c = await cleaner({ customer_reminders: [24] });
    const to = 'rae.outage@example.com';
    await bookJob(c, proJob('2026-11-25T09:00:00-05:00', to));
    const target = new URL(h.t.url);
    const proxy = await startFreezableProxy({ host: target.hostname, port: Number(target.port) });
    const viaProxy = new URL(h.t.url);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    const db = createDb(viaProxy.toString(), { maxConnections: 2, connectTimeoutMs: 500, statementTimeoutMs: 500 });
    try {
      at('2026-11-24T13:59:00Z');
      await tick(db); // not due yet
      proxy.freeze();
      at('2026-11-24T14:00:30Z');
      await expect(tick(db)).rejects.toThrow();
      at('2026-11-24T14:01:00Z');
      await expect(tick(db)).rejects.toThrow();
      expect(await subjectsTo(to)).toEqual([]);
      proxy.thaw();
      at('2026-11-24T14:01:30Z');
      let sent = false;
      for (let i = 0; i < 20 && !sent; i += 1) {
        sent = await tick(db).then(
          () => true,
          () => false,
        );
      }
      expect(sent).toBe(true);
      await tick(db);
      await tick();
    } finally {
      proxy.thaw();
      await db.destroy();
      await proxy.close();
    }
    expect(await subjectsTo(to)).toHaveLength(1);
  });
});

describe('unsubscribing', () => {
  it('stops the next reminder through the GET page and its form, and through a one-click POST, but never a confirmation', async () => {
    const c = await cleaner({ customer_reminders: [48] }); // each job below is reminded as soon as it is booked
    const to = 'rae.unsub@example.com';
    await bookJob(c, proJob('2026-11-24T09:00:00-05:00', to));
    await tick();
    const [first] = await mailsTo(to);
    const link = /http:\/\/book\.test(\/unsubscribe\/[A-Za-z0-9_-]{43})/.exec(first!.mail.text!)![1]!;
    const page = await h.book.get(link).expect(200);
    expect(page.text).toContain('Stop these emails');
    expect(page.text).toContain(`method="post" action="${link}"`);
    // Looking at the page changed nothing: a second job is still reminded.
    await bookJob(c, proJob('2026-11-24T13:00:00-05:00', to));
    await tick();
    expect(await mailsTo(to)).toHaveLength(2);
    const posted = await h.book.post(link).type('form').send({});
    expect(posted.status).toBe(303);
    expect(posted.headers.location).toBe(link);
    expect((await h.book.get(link).expect(200)).text).toMatch(/no more reminders/);
    // The next reminder does not come; the customer's own booking is still confirmed.
    await bookJob(c, proJob('2026-11-24T15:00:00-05:00', to));
    await tick();
    expect(await mailsTo(to)).toHaveLength(2);
    const confirmed = await bookCleaning(h, booking(c.pro.id, { start: '2026-11-26T09:00:00-05:00', customer_email: to })).expect(200);
    expect(confirmed.body.booking_id).toBeTruthy();
    expect((await subjectsTo(to)).filter((s) => s.startsWith('Booked: '))).toHaveLength(1);
  });

  it('takes a mail program’s one-click POST (RFC 8058) without a cookie or origin', async () => {
    const c = await cleaner({ customer_reminders: [48] });
    const to = 'rae.oneclick@example.com';
    await bookJob(c, proJob('2026-11-24T09:00:00-05:00', to));
    await tick();
    const [first] = await mailsTo(to);
    const url = /<http:\/\/book\.test(\/unsubscribe\/[A-Za-z0-9_-]{43})>/.exec(first!.raw)![1]!;
    const res = await h.book.post(url).type('form').send('List-Unsubscribe=One-Click');
    expect(res.status).toBe(200);
    await bookJob(c, proJob('2026-11-24T13:00:00-05:00', to));
    await tick();
    expect(await mailsTo(to)).toHaveLength(1);
    expect((await h.book.get('/unsubscribe/not-a-token')).status).toBe(404);
  });
});

describe('review requests', () => {
  it('asks after a finished job, not after a cancelled one or a no-show, and not when off', async () => {
    const c = await cleaner({ customer_reminders: [], review_request: { link: 'https://g.page/r/sparkle/review', delay_hours: 2 } });
    const done = await bookJob(c, proJob('2026-11-24T09:00:00-05:00', 'done.review@example.com'));
    const cancelled = await bookJob(c, proJob('2026-11-24T13:00:00-05:00', 'cancelled.review@example.com'));
    const noShow = await bookJob(c, proJob('2026-11-25T09:00:00-05:00', 'noshow.review@example.com'));
    const off = await cleaner({ customer_reminders: [] });
    await bookJob(off, proJob('2026-11-24T09:00:00-05:00', 'off.review@example.com'));
    await h.pro.post('/api/v1/cancel_job').set(c.auth).send({ booking_id: cancelled.booking_id }).expect(200);
    at('2026-11-25T14:30:00Z');
    await h.pro.post('/api/v1/report_no_show').set(c.auth).send({ booking_id: noShow.booking_id }).expect(200);
    at('2026-11-26T12:00:00Z');
    await tick();
    await tick();
    const mails = await mailsTo('done.review@example.com');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.mail.text).toContain('https://g.page/r/sparkle/review');
    expect(mails[0]!.raw).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    for (const to of ['cancelled.review@example.com', 'noshow.review@example.com', 'off.review@example.com']) expect(await subjectsTo(to)).toEqual([]);
    const feed = await h.pro.get('/api/v1/updates').set(c.auth).expect(200);
    expect((feed.body.events as { kind: string; booking_id?: string }[]).filter((e) => e.kind === 'review_request.sent')).toEqual([
      expect.objectContaining({ booking_id: done.booking_id }),
    ]);
  });
});
