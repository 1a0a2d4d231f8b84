// request_turnovers on the book host (issue 37, point 6), over REST and MCP on one real
// database, with the hosts' calendars served by a real HTTP server on this machine: a host's
// request makes the property at the business (proposing or booking, as the business chose),
// the arrangement carries one booking fee (waived when its first clean is a no-show), the host
// is mailed through the outbox when the calendars book, move or cancel a clean (never when the
// owner cancels by hand, never for the business's own properties), and the rental page shows
// the stays and stops the arrangement.
import { AIRBNB_PRODID, CalendarServer, airbnbStay, calendar, type FixtureEvent } from '@frontdesk/dev-env/ical-fixtures';
import { asPublic, bothHostsPerFile, newCleaner } from '@frontdesk/dev-env/both-hosts';
import { acceptProposal } from '@frontdesk/use-cases';
import { createHash } from 'node:crypto';
import { sql } from 'kysely';

const h = bothHostsPerFile();
const cal = new CalendarServer();
beforeAll(() => cal.start());
afterAll(() => cal.stop());

type Json = Record<string, any>;
type Auth = Record<string, string>;
let HOST: Auth = {};
let HOST_EMAIL = '';
beforeEach(() => {
  HOST_EMAIL = `hana.${++n}@example.com`;
  HOST = { ...asPublic, 'X-User-Name': 'Hana Host', 'X-User-Email': HOST_EMAIL };
});

let n = 0;
const feed = (events: FixtureEvent[]) => {
  const path = `/host/${++n}.ics`;
  return {
    url: cal.serve(path, { body: calendar(AIRBNB_PRODID, events) }),
    set: (evs: FixtureEvent[]) => cal.serve(path, { body: calendar(AIRBNB_PRODID, evs) }),
  };
};
const TWO_STAYS = [airbnbStay('h1', '2026-11-24', '2026-11-26'), airbnbStay('h2', '2026-11-28', '2026-11-30')];
const RENTAL = { name: 'Lake cabin', address: '9 Shore Rd', zip: '10001', bedrooms: 2, bathrooms: 1 };

const ask = (body: object, headers: Auth = HOST) => h.book.post('/api/v1/request_turnovers').set(headers).send(body);
const proPost = (auth: Auth, op: string, body: object) => h.pro.post(`/api/v1/${op}`).set(auth).send(body);
const sync = async (auth: Auth, id: string): Promise<Json> => (await proPost(auth, 'sync_property', { property_id: id }).expect(200)).body;
/** The outbox's mails to one address, in the order they were queued (the clock stands still, so by the row's insertion). */
const mailsTo = (to: string) =>
  h.t.db
    .selectFrom('outbox')
    .select(['subject', 'text_body', 'secret'])
    .where('to_address', '=', to)
    .orderBy('created_at')
    .orderBy(sql`ctid`)
    .execute();
const bookingsOf = (proId: string) => h.t.db.selectFrom('bookings').selectAll().where('pro_id', '=', proId).orderBy('starts_at').execute();
const cleaner = async () => {
  const made = await newCleaner(h);
  return { ...made, id: made.pro.id };
};
const tokenOf = (url: string) => url.split('/rental/')[1]!;

describe('request_turnovers', () => {
  it("makes a proposing property at the business from the host's request, with a rental link stored only as its hash, and mails the host the link", async () => {
    const biz = await cleaner();
    const { url } = feed(TWO_STAYS);
    const asked = (await ask({ cleaner_id: biz.id, ...RENTAL, calendar_urls: [url] }).expect(200)).body;
    expect(asked).toMatchObject({
      cleaner_id: biz.id,
      name: 'Lake cabin',
      mode: 'propose',
      manage_url: expect.stringMatching(/^http:\/\/book\.test\/rental\/[A-Za-z0-9_-]{43}$/),
    });
    expect(asked.message).toMatch(/proposed to .* to accept/);
    const row = await h.t.db.selectFrom('properties').selectAll().where('id', '=', asked.property_id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ pro_id: biz.id, mode: 'propose', host_name: 'Hana Host', host_email: HOST_EMAIL, fee_booking_id: null });
    expect(row.manage_token_hash).toEqual(createHash('sha256').update(tokenOf(asked.manage_url)).digest());
    const [welcome] = await mailsTo(HOST_EMAIL);
    expect(welcome).toMatchObject({ subject: expect.stringMatching(/will clean Lake cabin between guests/), secret: true });
    expect(welcome!.text_body).toContain(asked.manage_url);

    // In propose mode the calendars' stays wait for the owner: no booking, no fee, no host mail.
    const synced = await sync(biz.auth, asked.property_id);
    expect(synced.stays.map((s: Json) => s.clean)).toEqual(['proposed', 'proposed']);
    expect(await bookingsOf(biz.id)).toEqual([]);
    expect(await mailsTo(HOST_EMAIL)).toHaveLength(1);
  });

  it('refuses an unknown cleaner, a ZIP outside the area, a bad calendar address and a host without contact, clearly', async () => {
    const biz = await cleaner();
    const { url } = feed([]);
    const body = { cleaner_id: biz.id, ...RENTAL, calendar_urls: [url] };
    expect((await ask({ ...body, cleaner_id: 'pro_nobody' }).expect(404)).body.error).toMatch(/No cleaner with id pro_nobody/);
    expect((await ask({ ...body, zip: '94110' }).expect(400)).body.error).toMatch(/does not serve ZIP 94110/);
    expect((await ask({ ...body, calendar_urls: ['https://'] }).expect(400)).body.error).toMatch(/is not a calendar link/);
    expect((await ask({ ...body, calendar_urls: ['webcal://x.example/a.ics'] }).expect(400)).body.error).toMatch(/calendar_urls/);
    expect((await ask(body, asPublic).expect(400)).body.error).toMatch(/name/i);
    expect(await h.t.db.selectFrom('properties').select('id').where('pro_id', '=', biz.id).execute()).toEqual([]);
  });

  it('answers a retry with the same Idempotency-Key once: one property, the same link', async () => {
    const biz = await cleaner();
    const body = { cleaner_id: biz.id, ...RENTAL, calendar_urls: [feed([]).url] };
    const key = `turn-${biz.id}`;
    const first = (await ask(body, { ...HOST, 'Idempotency-Key': key }).expect(200)).body;
    const again = (await ask(body, { ...HOST, 'Idempotency-Key': key }).expect(200)).body;
    expect(again).toEqual(first);
    expect(await h.t.db.selectFrom('properties').select('id').where('pro_id', '=', biz.id).execute()).toHaveLength(1);
    const kept = await h.t.db.selectFrom('idempotency_keys').selectAll().execute();
    expect(JSON.stringify(kept)).not.toContain(tokenOf(first.manage_url));
  });

  it("over MCP, books at once when the business allows it: one 5 USD fee on the first clean, the host mailed each booking, move and cancel the calendars make, and none the owner's", async () => {
    const biz = await cleaner();
    const setting = (await proPost(biz.auth, 'update_business', { host_turnovers: 'book' }).expect(200)).body;
    expect(setting.host_turnovers).toBe('book');
    const f = feed(TWO_STAYS);
    const called = await h.book
      .post('/mcp')
      .set({ ...HOST, accept: 'application/json, text/event-stream' })
      .send({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'request_turnovers', arguments: { cleaner_id: biz.id, ...RENTAL, calendar_urls: [f.url] } },
      })
      .expect(200);
    const asked = called.body.result.structuredContent as Json;
    expect(asked.mode).toBe('book');
    const synced = await sync(biz.auth, asked.property_id);
    expect(synced.stays.map((s: Json) => [s.clean, s.start])).toEqual([
      ['booked', '2026-11-26T11:00:00-05:00'],
      ['booked', '2026-11-30T11:00:00-05:00'],
    ]);
    let [first, second] = await bookingsOf(biz.id);
    expect([first!.fee_cents, second!.fee_cents]).toEqual([500, 0]);
    const booked = await mailsTo(HOST_EMAIL);
    expect(booked.map((m) => m.subject)).toEqual([
      expect.stringMatching(/will clean Lake cabin/),
      expect.stringMatching(/^Turnover booked: Lake cabin, .*Nov 26/),
      expect.stringMatching(/^Turnover booked: Lake cabin, .*Nov 30/),
    ]);
    for (const m of booked) expect(m.text_body).toContain(asked.manage_url);

    // The second guests leave a day later: its clean moves, and the host hears of it.
    f.set([TWO_STAYS[0]!, airbnbStay('h2', '2026-11-28', '2026-12-01')]);
    await sync(biz.auth, asked.property_id);
    // The first stay disappears: its clean (the fee's) is cancelled and the host told; the fee passes to the next clean.
    f.set([airbnbStay('h2', '2026-11-28', '2026-12-01')]);
    await sync(biz.auth, asked.property_id);
    const told = (await mailsTo(HOST_EMAIL)).slice(3).map((m) => m.subject);
    expect(told).toEqual([expect.stringMatching(/^Turnover moved: Lake cabin, .*Dec 1/), expect.stringMatching(/^Turnover cancelled: Lake cabin, .*Nov 26/)]);
    [first, second] = await bookingsOf(biz.id);
    expect([first!.status, second!.status]).toEqual(['cancelled', 'booked']);

    // The fee the cancelled clean gave up rode on to the next one at once; a new stay's clean carries none: still one fee for the arrangement.
    f.set([airbnbStay('h2', '2026-11-28', '2026-12-01'), airbnbStay('h3', '2026-12-02', '2026-12-04')]);
    await sync(biz.auth, asked.property_id);
    const live = (await bookingsOf(biz.id)).filter((b) => b.status === 'booked');
    expect(live.map((b) => b.fee_cents)).toEqual([500, 0]);
    const mailsBefore = (await mailsTo(HOST_EMAIL)).length;
    expect(mailsBefore).toBe(6);

    // The owner cancels one by hand: the host is never messaged about it.
    await proPost(biz.auth, 'cancel_job', { booking_id: live[1]!.id }).expect(200);
    expect(await mailsTo(HOST_EMAIL)).toHaveLength(mailsBefore);
  });

  it("carries one fee, waived when the arrangement's first clean is a no-show", async () => {
    const biz = await cleaner();
    await proPost(biz.auth, 'update_business', { host_turnovers: 'book' }).expect(200);
    const asked = (await ask({ cleaner_id: biz.id, ...RENTAL, calendar_urls: [feed(TWO_STAYS).url] }).expect(200)).body;
    await sync(biz.auth, asked.property_id);
    const [first] = await bookingsOf(biz.id);
    expect(first!.fee_cents).toBe(500);
    h.clock.now = new Date('2026-11-26T20:00:00Z');
    const noShow = (await proPost(biz.auth, 'report_no_show', { booking_id: first!.id }).expect(200)).body;
    expect(noShow.fee_waived).toBe(true);
    const pipeline = (await h.pro.get('/api/v1/my_business').set(biz.auth).expect(200)).body.pipeline;
    expect(JSON.stringify(pipeline)).toMatch(/"fees_waived_for_no_shows":1,"fee_per_booking":5,"fees_due":0/);
  });

  it("mails nobody but the owner about the business's own property (add_property), and charges no fee", async () => {
    const biz = await cleaner();
    const own = (
      await proPost(biz.auth, 'add_property', {
        ...RENTAL,
        host_name: 'Own Host',
        host_email: 'own.host@example.com',
        calendar_urls: [feed(TWO_STAYS).url],
      }).expect(200)
    ).body;
    await sync(biz.auth, own.property_id);
    expect((await bookingsOf(biz.id)).map((b) => b.fee_cents)).toEqual([0, 0]);
    expect(await mailsTo('own.host@example.com')).toEqual([]);
  });
});

describe('one arrangement for one set of calendars', () => {
  it('refuses a second request for calendars the business already reads, whoever asks: nothing made, no link in the answer, the link mailed again to the host on file (once an hour)', async () => {
    const biz = await cleaner();
    await proPost(biz.auth, 'update_business', { host_turnovers: 'book' }).expect(200);
    const f = feed(TWO_STAYS);
    const other = feed([]);
    const asked = (await ask({ cleaner_id: biz.id, ...RENTAL, calendar_urls: [f.url] }).expect(200)).body;
    await sync(biz.auth, asked.property_id);
    const hostEmail = HOST_EMAIL;
    h.clock.now = new Date(h.clock.now.getTime() + 2 * 3_600_000);

    // Someone else (or the host, forgetting) asks again with one of the same calendars among others.
    const stranger = { ...asPublic, 'X-User-Name': 'Sam Stranger', 'X-User-Email': 'sam@example.com' };
    const again = await ask({ cleaner_id: biz.id, ...RENTAL, name: 'Cabin again', calendar_urls: [other.url, f.url] }, stranger).expect(400);
    expect(again.body.error).toMatch(/^calendar_urls: Cleaner .* already reads these calendars for a rental, so nothing new was made\./);
    expect(JSON.stringify(again.body)).not.toContain(tokenOf(asked.manage_url));
    expect(JSON.stringify(again.body)).not.toMatch(/Hana|hana\./);
    expect(await h.t.db.selectFrom('properties').select('id').where('pro_id', '=', biz.id).execute()).toHaveLength(1);
    expect((await bookingsOf(biz.id)).map((b) => [b.status, b.fee_cents])).toEqual([
      ['booked', 500],
      ['booked', 0],
    ]);
    expect(await mailsTo('sam@example.com')).toEqual([]);
    const relinked = (await mailsTo(hostEmail)).find((m) => m.subject.startsWith('Your turnover cleans at'))!;
    expect(relinked).toMatchObject({ subject: expect.stringMatching(/^Your turnover cleans at Lake cabin with /), secret: true });
    expect(relinked.text_body).toContain(asked.manage_url);

    // Asked again at once: refused the same, and the host is not mailed again within the hour.
    const mails = (await mailsTo(hostEmail)).length;
    await ask({ cleaner_id: biz.id, ...RENTAL, calendar_urls: [f.url] }, stranger).expect(400);
    expect(await mailsTo(hostEmail)).toHaveLength(mails);

    // The business's own property reading a calendar: refused too, and nobody is mailed (it has no link).
    const own = feed([]);
    await proPost(biz.auth, 'add_property', { ...RENTAL, host_name: 'Own Host', host_email: 'own2.host@example.com', calendar_urls: [own.url] }).expect(200);
    expect((await ask({ cleaner_id: biz.id, ...RENTAL, calendar_urls: [own.url] }, stranger).expect(400)).body.error).toMatch(/already reads these calendars/);
    expect(await mailsTo('own2.host@example.com')).toEqual([]);
    // Another business may still be asked for the same calendars.
    const biz2 = await cleaner();
    await ask({ cleaner_id: biz2.id, ...RENTAL, calendar_urls: [f.url] }).expect(200);
  });
});

describe("the arrangement's one fee", () => {
  const liveFees = async (proId: string) =>
    (await bookingsOf(proId)).filter((b) => b.status === 'booked').map((b) => [b.starts_at.toISOString().slice(0, 10), b.fee_cents]);
  const THREE_STAYS = [...TWO_STAYS, airbnbStay('h3', '2026-12-02', '2026-12-04')];

  it('passes to the next upcoming clean at once when the clean carrying it is cancelled, by the calendar or by the owner', async () => {
    const biz = await cleaner();
    await proPost(biz.auth, 'update_business', { host_turnovers: 'book' }).expect(200);
    const f = feed(THREE_STAYS);
    const asked = (await ask({ cleaner_id: biz.id, ...RENTAL, calendar_urls: [f.url] }).expect(200)).body;
    await sync(biz.auth, asked.property_id);
    expect(await liveFees(biz.id)).toEqual([
      ['2026-11-26', 500],
      ['2026-11-30', 0],
      ['2026-12-04', 0],
    ]);
    // The first stay is gone from the calendar: its clean is cancelled and the fee rides on the next one, no new booking needed.
    f.set(THREE_STAYS.slice(1));
    await sync(biz.auth, asked.property_id);
    expect(await liveFees(biz.id)).toEqual([
      ['2026-11-30', 500],
      ['2026-12-04', 0],
    ]);
    // The owner cancels the clean carrying it by hand: the fee moves on again.
    const carrier = (await bookingsOf(biz.id)).find((b) => b.status === 'booked' && b.fee_cents === 500)!;
    await proPost(biz.auth, 'cancel_job', { booking_id: carrier.id }).expect(200);
    expect(await liveFees(biz.id)).toEqual([['2026-12-04', 500]]);
    // Still one fee for the arrangement: the next read changes nothing.
    await sync(biz.auth, asked.property_id);
    expect(await liveFees(biz.id)).toEqual([['2026-12-04', 500]]);
  });

  it('rides on the earliest clean by date in propose mode, whichever proposal the owner accepts first', async () => {
    const biz = await cleaner();
    const asked = (await ask({ cleaner_id: biz.id, ...RENTAL, calendar_urls: [feed(TWO_STAYS).url] }).expect(200)).body;
    const stays = (await sync(biz.auth, asked.property_id)).stays as Json[];
    expect(stays.map((s) => s.clean)).toEqual(['proposed', 'proposed']);
    const accept = (stay: Json) => acceptProposal(h.t.db, biz.pro, { property_id: asked.property_id, stay_id: stay.stay_id }, { now: h.clock.now });
    expect((await accept(stays[1]!)).outcome).toBe('booked');
    expect(await liveFees(biz.id)).toEqual([['2026-11-30', 500]]);
    expect((await accept(stays[0]!)).outcome).toBe('booked');
    expect(await liveFees(biz.id)).toEqual([
      ['2026-11-26', 500],
      ['2026-11-30', 0],
    ]);
    const row = await h.t.db.selectFrom('properties').select('fee_booking_id').where('id', '=', asked.property_id).executeTakeFirstOrThrow();
    expect(row.fee_booking_id).toBe((await bookingsOf(biz.id))[0]!.id);
  });
});

describe("the host's mail of moves", () => {
  it("tells the host of a clean the calendar moved, never of one the owner's own change to the property moved", async () => {
    const biz = await cleaner();
    await proPost(biz.auth, 'update_business', { host_turnovers: 'book' }).expect(200);
    const f = feed(TWO_STAYS);
    const asked = (await ask({ cleaner_id: biz.id, ...RENTAL, calendar_urls: [f.url] }).expect(200)).body;
    await sync(biz.auth, asked.property_id);
    const mails = (await mailsTo(HOST_EMAIL)).length;
    expect(mails).toBe(3);
    const movedMails = async () => (await mailsTo(HOST_EMAIL)).filter((m) => m.subject.startsWith('Turnover moved')).map((m) => m.subject);

    // The owner sets a later checkout time: both cleans move (the feed hears of it), the host is not mailed.
    await proPost(biz.auth, 'update_property', { property_id: asked.property_id, checkout_time: '13:00' }).expect(200);
    const moved = await sync(biz.auth, asked.property_id);
    expect(moved.stays.map((s: Json) => s.start)).toEqual(['2026-11-26T13:00:00-05:00', '2026-11-30T13:00:00-05:00']);
    const events = await h.t.db.selectFrom('events').select('kind').where('pro_id', '=', biz.id).where('kind', '=', 'turnover.moved').execute();
    expect(events).toHaveLength(2);
    expect(await mailsTo(HOST_EMAIL)).toHaveLength(mails);

    // The second guests stay a night longer: the calendar moved that clean, and the host hears of it.
    f.set([TWO_STAYS[0]!, airbnbStay('h2', '2026-11-28', '2026-12-01')]);
    await sync(biz.auth, asked.property_id);
    expect(await mailsTo(HOST_EMAIL)).toHaveLength(mails + 1);
    expect(await movedMails()).toEqual([expect.stringMatching(/^Turnover moved: Lake cabin, .*Dec 1, 1:00 PM/)]);
  });
});

describe('the rental page', () => {
  it('shows the stays and cleans in the business zone, and stops the arrangement after asking: a customer cancel, the property gone, safe to reload', async () => {
    const biz = await cleaner();
    await proPost(biz.auth, 'update_business', { host_turnovers: 'book' }).expect(200);
    const asked = (await ask({ cleaner_id: biz.id, ...RENTAL, calendar_urls: [feed(TWO_STAYS).url] }).expect(200)).body;
    await sync(biz.auth, asked.property_id);
    const path = new URL(asked.manage_url).pathname;
    const page = (await h.book.get(path).expect(200)).text;
    expect(page).toContain('Lake cabin');
    expect(page).toContain('Guests from Tue, Nov 24 to Thu, Nov 26');
    expect(page).toMatch(/Clean booked: [^<]*Nov 26[^<]*11:00/);
    expect(page).not.toMatch(/property_id|manage_token|check_in/);
    const ask2 = (await h.book.get(`${path}/stop`).expect(200)).text;
    expect(ask2).toContain('Its 2 upcoming cleans are cancelled.');
    expect(ask2).toContain('Cancelling is free until 24 hours before a visit starts');
    expect(ask2).not.toContain('within 24 hours');
    // A day before the first clean, asking to stop warns of it as every cancel confirmation does.
    h.clock.now = new Date('2026-11-25T20:00:00Z');
    const late = (await h.book.get(`${path}/stop`).expect(200)).text;
    expect(late).toMatch(
      /The clean on [^<]*Nov 26[^<]*starts within 24 hours: stopping still cancels it, but Cleaner [^<]* may charge under their own policy\./,
    );
    expect(late).not.toMatch(/Nov 30[^<]*starts within/);
    const stopped = await h.book.post(`${path}/stop`).type('form').send({}).expect(303);
    expect(stopped.headers.location).toBe(`${path}/stopped`);
    expect((await h.book.get(`${path}/stopped`).expect(200)).text).toContain('2 upcoming cleans were cancelled');
    // The count is the one recorded, not the address's.
    const forged = (await h.book.get(`${path}/stopped?cancelled=9`).expect(200)).text;
    expect(forged).toContain('2 upcoming cleans were cancelled');
    expect(forged).not.toContain('9 upcoming');
    // Sent again (a reload of the POST), nothing more happens, and the page after it says the same.
    expect((await h.book.post(`${path}/stop`).type('form').send({}).expect(303)).headers.location).toBe(`${path}/stopped`);
    expect((await h.book.get(`${path}/stopped`).expect(200)).text).toContain('2 upcoming cleans were cancelled');
    expect(await h.t.db.selectFrom('properties').select('id').where('id', '=', asked.property_id).execute()).toEqual([]);
    expect((await bookingsOf(biz.id)).map((b) => [b.status, b.cancelled_by])).toEqual([
      ['cancelled', 'customer'],
      ['cancelled', 'customer'],
    ]);
    const last = (await mailsTo(HOST_EMAIL)).at(-1)!;
    expect(last.subject).toBe('Turnover cleans stopped: Lake cabin');
    // The rental's link and its stop link say it is stopped, with nothing left to stop.
    for (const link of [path, `${path}/stop`]) {
      const again = (await h.book.get(link).expect(200)).text;
      expect(again).toContain('<h1>Turnover cleans stopped</h1>');
      expect(again).toMatch(
        /You stopped these turnover cleans on Wed, Nov 25: Cleaner [^<]* no longer reads your calendars, and 2 upcoming cleans were cancelled then\./,
      );
      expect(again).not.toMatch(/<form|No rental matches/);
    }
    // What was kept of it: the link's hash, the business, when and how many; nothing of the rental or its host.
    const kept = await h.t.db.selectFrom('stopped_rentals').selectAll().where('pro_id', '=', biz.id).execute();
    expect(kept).toEqual([{ token_hash: expect.any(Buffer), pro_id: biz.id, stopped_at: h.clock.now, cancelled: 2 }]);
  });

  it('answers a link that opens no rental with the same page wherever it leads, whatever count its address carries', async () => {
    const path = `/rental/${'x'.repeat(43)}`;
    for (const link of [path, `${path}/stop`, `${path}/stopped`, `${path}/stopped?cancelled=3`]) {
      const page = (await h.book.get(link).expect(404)).text;
      expect(page).toContain('No rental matches this link. Check that it was copied whole.');
      expect(page).not.toMatch(/Stopped|cancelled/);
    }
    expect((await h.book.post(`${path}/stop`).type('form').send({}).expect(303)).headers.location).toBe(`${path}/stopped`);
  });
});
