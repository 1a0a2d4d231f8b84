// add_property, update_property, remove_property, list_properties and sync_property
// (src/operations/properties.ts), and the feed worker's tick: a host's calendars, served by a real
// HTTP server on this machine, become turnover cleans on the business's schedule and stay right
// as the stays change, fail or vanish.
import { newPro, validBooking } from '@frontdesk/dev-env/pro-desk';
import {
  AIRBNB_PRODID,
  BOOKING_PRODID,
  VRBO_PRODID,
  airbnbBlock,
  airbnbStay,
  bookingClosed,
  calendar,
  vrboBlock,
  vrboStay,
} from '@frontdesk/dev-env/ical-fixtures';
import { rotateCalendarFeed } from '@frontdesk/db';
import { syncDueFeeds } from '@frontdesk/use-cases';
import { createFeedReader, feedsWorker } from '@frontdesk/workers';
import { propertyHarness, type Auth, type Json } from './property-harness';

const { h, cal, post, get, feed, fresh, sync, eventsOf, bookingsOf } = propertyHarness();

const HOUSE = {
  name: 'Beach house',
  address: '1 Ocean Ave',
  zip: '10001',
  bedrooms: 2,
  bathrooms: 1,
  host_name: 'Hana Host',
  host_email: 'hana@example.com',
};

async function addHouse(auth: Auth, urls: string[], over: object = {}): Promise<Json> {
  return (await post(auth, 'add_property', { ...HOUSE, calendar_urls: urls, ...over }).expect(200)).body;
}
const mailsTo = (to: string) => h.t.db.selectFrom('outbox').selectAll().where('to_address', '=', to).orderBy('created_at').orderBy('id').execute();
/** A business whose owner signs in at an address of its own, where its notices go. */
const newOwner = () => {
  const owner = `owner-${fresh()}-${Date.now()}@example.com`;
  return newPro(h, { owner_email: owner }).then((b) => ({ ...b, owner }));
};

/** Each way a calendar address fails: what it answers, and the reason the owner reads. */
const FAILURES: [string, object, RegExp][] = [
  ['a 500', { status: 500, body: 'oops' }, /answered 500/],
  ['an empty body', { body: '', etag: null }, /did not answer with a calendar/],
  ['a sign-in page', { body: '<!doctype html><html><body><form>Sign in</form></body></html>', etag: null }, /did not answer with a calendar/],
  ['a 5 MB body', { body: `BEGIN:VCALENDAR\r\n${'X-PAD:'.padEnd(1000, 'x')}\r\n`.repeat(5 * 1024), etag: null }, /larger than 2 MB/],
  // Loopback is allowed (the test server is on it); a private address after a redirect never is, judged before connecting.
  ['a redirect to a private address', { status: 302, location: 'http://10.0.0.7/calendar.ics' }, /10\.0\.0\.7 is not a public address/],
  [
    'a redirect to the cloud metadata address',
    { status: 307, location: 'http://169.254.169.254/latest/meta-data/' },
    /169\.254\.169\.254 is not a public address/,
  ],
  ['a redirect to a private IPv6 address', { status: 301, location: 'http://[fd00::7]/calendar.ics' }, /fd00::7 is not a public address/],
];

describe('add_property and list_properties', () => {
  it('adds a property with its calendars and the defaults, and refuses a host without phone or email and a calendar twice', async () => {
    const { auth } = await newPro(h);
    const a = feed(AIRBNB_PRODID, []);
    const added = await addHouse(auth, [a.url]);
    expect(added).toMatchObject({ name: 'Beach house', checkout_time: '11:00', checkin_time: '15:00', mode: 'book', stays: [] });
    expect(added.feeds).toEqual([{ url: a.url, last_read: null, outcome: null, reason: null, stays_listed: null }]);
    expect(added.message).toMatch(/read now and every 15 minutes/);
    const noContact = await post(auth, 'add_property', { ...HOUSE, host_email: undefined, calendar_urls: [a.url] }).expect(400);
    expect(noContact.body.error).toMatch(/host_phone or host_email is required/);
    expect((await post(auth, 'add_property', { ...HOUSE, calendar_urls: [a.url, a.url] }).expect(400)).body.error).toMatch(/one address twice/);
    expect((await post(auth, 'add_property', { ...HOUSE, calendar_urls: ['ftp://x'] }).expect(400)).body.error).toMatch(/calendar_urls/);
    expect((await post(auth, 'add_property', { ...HOUSE, bedrooms: 'two', calendar_urls: [a.url] }).expect(400)).body.error).toMatch(/bedrooms/);
    const listed = (await get(auth, 'list_properties').expect(200)).body.properties;
    expect(listed.map((p: Json) => p.property_id)).toEqual([added.property_id]);
  });

  it("keeps each business's properties its own", async () => {
    const one = await newPro(h);
    const other = await newPro(h);
    const added = await addHouse(one.auth, [feed(AIRBNB_PRODID, []).url]);
    expect((await get(other.auth, 'list_properties').expect(200)).body.properties).toEqual([]);
    expect((await post(other.auth, 'sync_property', { property_id: added.property_id }).expect(404)).body.error).toMatch(/No property/);
    await post(other.auth, 'update_property', { property_id: added.property_id, name: 'Mine' }).expect(404);
  });
});

describe('sync_property', () => {
  it('books a turnover for each Airbnb reservation and none for its "Not available" blocks, from checkout to the next check-in', async () => {
    const { auth, pro } = await newPro(h);
    const a = feed(AIRBNB_PRODID, [
      airbnbStay('r1', '2026-11-24', '2026-11-26'),
      airbnbBlock('b1', '2026-11-26', '2026-11-28'),
      airbnbStay('r2', '2026-11-28', '2026-11-30'),
    ]);
    const house = await addHouse(auth, [a.url]);
    const synced = await sync(auth, house.property_id);
    expect(synced.feeds[0]).toMatchObject({ outcome: 'ok', stays_listed: 2, reason: null });
    expect(synced.stays.map((s: Json) => [s.check_in, s.checkout, s.clean, s.start])).toEqual([
      ['2026-11-24', '2026-11-26', 'booked', '2026-11-26T11:00:00-05:00'],
      ['2026-11-28', '2026-11-30', 'booked', '2026-11-30T11:00:00-05:00'],
    ]);
    const booked = await bookingsOf(pro.id);
    expect(booked.map((b) => [b.clean_type, b.customer_name, b.customer_email, b.address, b.fee_cents, b.status])).toEqual([
      ['turnover', 'Hana Host', 'hana@example.com', '1 Ocean Ave', 0, 'booked'],
      ['turnover', 'Hana Host', 'hana@example.com', '1 Ocean Ave', 0, 'booked'],
    ]);
    const kinds = (await eventsOf(pro.id)).map((e) => e.kind);
    expect(kinds.filter((k) => k === 'turnover.booked')).toHaveLength(2);
    // Reading again changes nothing: the same stays, the same two bookings.
    await sync(auth, house.property_id);
    expect(await bookingsOf(pro.id)).toHaveLength(2);
    // The host is never mailed about a turnover the business booked.
    expect(await h.t.db.selectFrom('outbox').select('id').where('to_address', '=', 'hana@example.com').execute()).toEqual([]);
  });

  it("reads DATE-only values as the business's own local days, never as UTC midnights", async () => {
    // In Honolulu (UTC-10) a DATE taken as UTC midnight would fall on the evening before.
    const { auth, pro } = await newPro(h, { timezone: 'Pacific/Honolulu' });
    const v = feed(VRBO_PRODID, [vrboStay('hi-1', '2026-11-24', '2026-11-26'), vrboBlock('hi-b', '2026-11-26', '2026-11-27')]);
    const b = feed(BOOKING_PRODID, [bookingClosed('hi-2', '2026-11-27', '2026-11-28')]);
    const house = await addHouse(auth, [v.url, b.url]);
    const synced = await sync(auth, house.property_id);
    expect(synced.stays.map((s: Json) => [s.check_in, s.checkout, s.start])).toEqual([
      ['2026-11-24', '2026-11-26', '2026-11-26T11:00:00-10:00'],
      ['2026-11-27', '2026-11-28', '2026-11-28T11:00:00-10:00'],
    ]);
    expect((await bookingsOf(pro.id)).map((x) => x.starts_at.toISOString())).toEqual(['2026-11-26T21:00:00.000Z', '2026-11-28T21:00:00.000Z']);
  });

  it('names the property on each turnover in schedule and in the business calendar feed, and on no other job', async () => {
    const { auth, pro } = await newPro(h);
    const house = await addHouse(auth, [feed(AIRBNB_PRODID, [airbnbStay('n1', '2026-11-25', '2026-11-27'), airbnbStay('n2', '2026-11-28', '2026-11-30')]).url]);
    await sync(auth, house.property_id);
    const other = (await post(auth, 'book_job', validBooking({ start: '2026-11-24T09:00:00-05:00' })).expect(200)).body;
    const jobs = (await get(auth, 'schedule').expect(200)).body.jobs as Json[];
    expect(jobs.map((j) => [j.booking_id === other.booking_id ? 'other' : j.job.clean_type, j.property_id])).toEqual([
      ['other', null],
      ['turnover', house.property_id],
      ['turnover', house.property_id],
    ]);
    const token = await rotateCalendarFeed(h.t.db, pro.id, h.clock.now);
    const ics = (await h.api.get(`/calendar/${token}.ics`).expect(200)).text;
    expect(ics.match(/X-FRONTDESK-PROPERTY-ID:[^\r]*/g)).toEqual([
      `X-FRONTDESK-PROPERTY-ID:${house.property_id}`,
      `X-FRONTDESK-PROPERTY-ID:${house.property_id}`,
    ]);
    expect(ics.match(/BEGIN:VEVENT/g)).toHaveLength(3);
  });

  it('gives a same-day turn the window from checkout to check-in, and marks a window no crew fits as needing attention', async () => {
    const { auth, pro } = await newPro(h);
    // The business is off from 10:00 to 16:00 on the 26th.
    await post(auth, 'add_time_off', { start: '2026-11-26T10:00:00-05:00', end: '2026-11-26T16:00:00-05:00' }).expect(200);
    const a = feed(AIRBNB_PRODID, [
      airbnbStay('s1', '2026-11-24', '2026-11-26'),
      airbnbStay('s2', '2026-11-26', '2026-11-28'),
      airbnbStay('s3', '2026-11-28', '2026-11-30'),
    ]);
    const house = await addHouse(auth, [a.url]);
    const synced = await sync(auth, house.property_id);
    const [first, second] = synced.stays as Json[];
    expect(first).toMatchObject({ clean: 'needs_attention', booking_id: null });
    expect(first!.attention).toMatch(
      /No crew is free for the whole clean between checkout \(Thu, Nov 26, 11:00 AM EST\) and the next check-in \(Thu, Nov 26, 3:00 PM EST\)/,
    );
    // A same-day turn that fits is booked at checkout.
    expect(second).toMatchObject({ clean: 'booked', start: '2026-11-28T11:00:00-05:00' });
    const attention = (await eventsOf(pro.id)).filter((e) => e.kind === 'turnover.needs_attention');
    expect(attention).toHaveLength(1);
    await sync(auth, house.property_id);
    expect((await eventsOf(pro.id)).filter((e) => e.kind === 'turnover.needs_attention')).toHaveLength(1); // told once
  });

  it('books a long window past the days around checkout without landing on a job booked further on', async () => {
    const { auth, pro } = await newPro(h);
    // Off from checkout day until the morning of Dec 1, and a job already booked that morning:
    // the first start that fits lies four days past checkout, beside that job.
    await post(auth, 'add_time_off', { start: '2026-11-27T00:00:00-05:00', end: '2026-12-01T08:00:00-05:00' }).expect(200);
    const job = (await post(auth, 'book_job', validBooking({ start: '2026-12-01T09:00:00-05:00' })).expect(200)).body;
    const house = await addHouse(auth, [feed(AIRBNB_PRODID, [airbnbStay('w1', '2026-11-24', '2026-11-27'), airbnbStay('w2', '2026-12-05', '2026-12-07')]).url]);
    const [first] = (await sync(auth, house.property_id)).stays as Json[];
    expect(first).toMatchObject({ clean: 'booked' });
    const [clean] = (await bookingsOf(pro.id)).filter((b) => b.property_id === house.property_id);
    const other = (await bookingsOf(pro.id)).find((b) => b.id === job.booking_id)!;
    expect(clean!.starts_at.getTime() >= other.blocked_until.getTime() || clean!.blocked_until.getTime() <= other.starts_at.getTime()).toBe(true);
    expect(clean!.starts_at.getTime()).toBeGreaterThanOrEqual(Date.parse('2026-12-01T08:00:00-05:00'));
  });

  it('moves the clean of a Vrbo stay whose UID changed with its dates, and cancels the clean of a stay that silently disappears', async () => {
    const { auth, pro } = await newPro(h);
    const v = feed(VRBO_PRODID, [
      vrboStay('v-100', '2026-11-24', '2026-11-27'),
      vrboBlock('v-b', '2026-11-27', '2026-11-28'),
      vrboStay('v-200', '2026-12-01', '2026-12-03'),
    ]);
    const house = await addHouse(auth, [v.url]);
    const before = (await sync(auth, house.property_id)).stays as Json[];
    expect(before.map((s) => s.start)).toEqual(['2026-11-27T11:00:00-05:00', '2026-12-03T11:00:00-05:00']);
    // The guest stays a night longer: Vrbo gives the stay a new UID; the other stay is gone without STATUS:CANCELLED.
    v.set([vrboStay('v-101', '2026-11-24', '2026-11-28')]);
    const after = (await sync(auth, house.property_id)).stays as Json[];
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({
      stay_id: before[0]!.stay_id,
      booking_id: before[0]!.booking_id,
      checkout: '2026-11-28',
      start: '2026-11-28T11:00:00-05:00',
    });
    const bookings = await bookingsOf(pro.id);
    expect(bookings.map((b) => [b.id, b.status, b.cancelled_by])).toEqual([
      [before[0]!.booking_id, 'booked', null],
      [before[1]!.booking_id, 'cancelled', 'pro'],
    ]);
    const events = await eventsOf(pro.id);
    expect(events.filter((e) => e.kind === 'turnover.moved').map((e) => [e.booking_id, e.to])).toEqual([[before[0]!.booking_id, '2026-11-28T11:00:00-05:00']]);
    expect(events.filter((e) => e.kind === 'turnover.cancelled').map((e) => e.booking_id)).toEqual([before[1]!.booking_id]);
    expect(await h.t.db.selectFrom('outbox').select('id').where('to_address', '=', 'hana@example.com').execute()).toEqual([]);
  });

  it('moves a clean to fit when a new stay arrives before it can finish', async () => {
    const { auth, pro } = await newPro(h);
    const off = (await post(auth, 'add_time_off', { start: '2026-11-26T10:00:00-05:00', end: '2026-11-26T14:00:00-05:00' }).expect(200)).body;
    const a = feed(AIRBNB_PRODID, [airbnbStay('g1', '2026-11-24', '2026-11-26')]);
    const house = await addHouse(auth, [a.url]);
    const [first] = (await sync(auth, house.property_id)).stays as Json[];
    expect(first).toMatchObject({ clean: 'booked', start: '2026-11-26T14:00:00-05:00' }); // nothing follows: the rest of the day
    await post(auth, 'remove_time_off', { time_off_id: off.time_off_id }).expect(200);
    a.set([airbnbStay('g1', '2026-11-24', '2026-11-26'), airbnbStay('g2', '2026-11-26', '2026-11-28')]);
    const [moved] = (await sync(auth, house.property_id)).stays as Json[];
    expect(moved).toMatchObject({ booking_id: first!.booking_id, start: '2026-11-26T11:00:00-05:00' });
    expect((await eventsOf(pro.id)).filter((e) => e.kind === 'turnover.moved').map((e) => e.to)).toEqual(['2026-11-26T11:00:00-05:00']);
  });

  it('keeps two stays whose UIDs swap dates as two stays, each clean moved with its own', async () => {
    const { auth, pro } = await newPro(h);
    const a = feed(AIRBNB_PRODID, [airbnbStay('q1', '2026-12-01', '2026-12-03'), airbnbStay('q2', '2026-12-05', '2026-12-07')]);
    const house = await addHouse(auth, [a.url]);
    const before = (await sync(auth, house.property_id)).stays as Json[];
    a.set([airbnbStay('q1', '2026-12-05', '2026-12-07'), airbnbStay('q2', '2026-12-01', '2026-12-03')]);
    const after = (await sync(auth, house.property_id)).stays as Json[];
    expect(after.map((s) => [s.stay_id, s.checkout, s.booking_id])).toEqual([
      [before[1]!.stay_id, '2026-12-03', before[1]!.booking_id],
      [before[0]!.stay_id, '2026-12-07', before[0]!.booking_id],
    ]);
    expect((await eventsOf(pro.id)).filter((e) => e.kind === 'turnover.moved')).toHaveLength(2);
  });

  it('makes one stay of the same dates in two feeds, and a Booking.com closed range a stay', async () => {
    const { auth, pro } = await newPro(h);
    const a = feed(AIRBNB_PRODID, [airbnbStay('x1', '2026-12-01', '2026-12-04')]);
    const b = feed(BOOKING_PRODID, [bookingClosed('bk-1', '2026-12-01', '2026-12-04'), bookingClosed('bk-2', '2026-12-06', '2026-12-08')]);
    const house = await addHouse(auth, [a.url, b.url]);
    const synced = await sync(auth, house.property_id);
    expect(synced.stays.map((s: Json) => [s.check_in, s.source, s.clean])).toEqual([
      ['2026-12-01', 'airbnb', 'booked'],
      ['2026-12-06', 'booking', 'booked'],
    ]);
    expect(await bookingsOf(pro.id)).toHaveLength(2);
  });

  it('reads an unchanged feed with a conditional GET (304) and keeps its stays', async () => {
    const { auth, pro } = await newPro(h);
    const a = feed(AIRBNB_PRODID, [airbnbStay('c1', '2026-11-25', '2026-11-27')]);
    const house = await addHouse(auth, [a.url]);
    await sync(auth, house.property_id);
    const again = await sync(auth, house.property_id);
    expect(again.feeds[0]).toMatchObject({ outcome: 'unchanged', stays_listed: 1 });
    expect(again.stays).toHaveLength(1);
    expect((await bookingsOf(pro.id)).map((b) => b.status)).toEqual(['booked']);
    expect(cal.hits.get(a.path)).toBe(2);
  });

  it.each(FAILURES)('cancels nothing when the feed answers %s, shows it failing, and tells the owner once by event and mail', async (_what, script, reason) => {
    const { auth, pro, owner } = await newOwner();
    const a = feed(AIRBNB_PRODID, [airbnbStay('f1', '2026-11-25', '2026-11-27')]);
    const house = await addHouse(auth, [a.url]);
    await sync(auth, house.property_id);
    cal.serve(a.path, script);
    const failed = await sync(auth, house.property_id);
    expect(failed.feeds[0]).toMatchObject({ outcome: 'failing', reason: expect.stringMatching(reason) });
    expect(failed.message).toMatch(/1 failed, so nothing was cancelled/);
    expect(failed.stays.map((s: Json) => s.clean)).toEqual(['booked']);
    await sync(auth, house.property_id);
    const told = (await eventsOf(pro.id)).filter((e) => e.kind === 'property.feed_failing');
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ property_id: house.property_id, url: a.url });
    const mails = await mailsTo(owner);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toMatch(/a calendar of Beach house cannot be read$/);
    expect(mails[0]!.text_body).toMatch(reason);
    expect(mails[0]!.text_body).toContain(a.url);
    expect((await bookingsOf(pro.id)).map((b) => [b.status, b.starts_at.toISOString()])).toEqual([['booked', '2026-11-27T16:00:00.000Z']]);
  });

  it.each(FAILURES)('keeps the stays of a feed that answers %s while another feed of the property is read and applied', async (_what, script) => {
    const { auth, pro } = await newPro(h);
    const a = feed(AIRBNB_PRODID, [airbnbStay('k1', '2026-11-25', '2026-11-27'), airbnbBlock('k-mirror', '2026-12-01', '2026-12-03')]);
    const v = feed(VRBO_PRODID, [vrboStay('kv-1', '2026-12-01', '2026-12-03'), vrboStay('kv-2', '2026-12-06', '2026-12-08')]);
    const house = await addHouse(auth, [a.url, v.url]);
    const before = (await sync(auth, house.property_id)).stays as Json[];
    expect(before.map((s) => [s.check_in, s.clean])).toEqual([
      ['2026-11-25', 'booked'],
      ['2026-12-01', 'booked'],
      ['2026-12-06', 'booked'],
    ]);
    // Airbnb now fails and Airbnb's own stay is no longer anywhere readable; Vrbo's second stay silently disappears.
    cal.serve(a.path, script);
    v.set([vrboStay('kv-1', '2026-12-01', '2026-12-03')]);
    const after = await sync(auth, house.property_id);
    expect(after.feeds.map((f: Json) => f.outcome)).toEqual(['failing', 'ok']);
    expect(after.stays.map((s: Json) => [s.stay_id, s.clean])).toEqual([
      [before[0]!.stay_id, 'booked'],
      [before[1]!.stay_id, 'booked'],
    ]);
    const bookings = await bookingsOf(pro.id);
    expect(bookings.map((b) => [b.id, b.status])).toEqual([
      [before[0]!.booking_id, 'booked'],
      [before[1]!.booking_id, 'booked'],
      [before[2]!.booking_id, 'cancelled'],
    ]);
  });

  it('mails the owner again only after the feed has read well and then fails anew', async () => {
    const { auth, pro, owner } = await newOwner();
    const events = [airbnbStay('o1', '2026-11-25', '2026-11-27')];
    const a = feed(AIRBNB_PRODID, events);
    const house = await addHouse(auth, [a.url]);
    await sync(auth, house.property_id);
    cal.serve(a.path, { status: 500, body: 'down' });
    await sync(auth, house.property_id);
    cal.serve(a.path, { status: 503, body: 'still down' });
    await sync(auth, house.property_id);
    expect(await mailsTo(owner)).toHaveLength(1);
    a.set(events); // reads well again (the same calendar: a 304)
    expect((await sync(auth, house.property_id)).feeds[0]).toMatchObject({ outcome: 'unchanged' });
    expect(await mailsTo(owner)).toHaveLength(1);
    cal.serve(a.path, { body: '<html>Sign in to Airbnb</html>', etag: null });
    await sync(auth, house.property_id);
    await sync(auth, house.property_id);
    const mails = await mailsTo(owner);
    expect(mails.map((m) => /could not be read: (.*)\./.exec(m.text_body)?.[1]).sort()).toEqual([
      'the address did not answer with a calendar',
      'the calendar address answered 500',
    ]);
    // Events are in order: the second spell's comes after the first's.
    expect((await eventsOf(pro.id)).filter((e) => e.kind === 'property.feed_failing').map((e) => e.reason)).toEqual([
      'the calendar address answered 500',
      'the address did not answer with a calendar',
    ]);
    expect((await bookingsOf(pro.id)).map((b) => b.status)).toEqual(['booked']);
    // The host is never mailed about the calendar.
    expect(await mailsTo('hana@example.com')).toEqual([]);
  });

  it('cancels on an empty feed only after two successful reads in a row agree', async () => {
    const { auth, pro } = await newPro(h);
    const a = feed(AIRBNB_PRODID, [airbnbStay('e1', '2026-11-25', '2026-11-27')]);
    const house = await addHouse(auth, [a.url]);
    await sync(auth, house.property_id);
    a.set([]);
    expect((await sync(auth, house.property_id)).stays.map((s: Json) => s.clean)).toEqual(['booked']);
    expect((await bookingsOf(pro.id)).map((b) => b.status)).toEqual(['booked']);
    cal.serve(a.path, { body: calendar(AIRBNB_PRODID, []), etag: null }); // read in full again, still empty
    expect((await sync(auth, house.property_id)).stays).toEqual([]);
    expect((await bookingsOf(pro.id)).map((b) => b.status)).toEqual(['cancelled']);
  });

  it('cancels nothing while a calendar put in place of another has not yet read well', async () => {
    const { auth, pro } = await newPro(h);
    const a = feed(AIRBNB_PRODID, [airbnbStay('r1', '2026-11-25', '2026-11-27'), airbnbStay('r2', '2026-11-28', '2026-11-30')]);
    const house = await addHouse(auth, [a.url]);
    await sync(auth, house.property_id);
    // The host's platform gave the calendar a new address, and the new one fails at first.
    const replaced = `/cal/replaced-${fresh()}.ics`;
    const url = cal.serve(replaced, { status: 500, body: 'oops' });
    await post(auth, 'update_property', { property_id: house.property_id, calendar_urls: [url] }).expect(200);
    expect((await sync(auth, house.property_id)).stays.map((s: Json) => s.clean)).toEqual(['booked', 'booked']);
    expect((await bookingsOf(pro.id)).map((b) => b.status)).toEqual(['booked', 'booked']);
    // Once it reads well, what it no longer lists is gone.
    cal.serve(replaced, { body: calendar(AIRBNB_PRODID, [airbnbStay('r2', '2026-11-28', '2026-11-30')]) });
    expect((await sync(auth, house.property_id)).stays.map((s: Json) => s.clean)).toEqual(['booked']);
    expect((await bookingsOf(pro.id)).map((b) => b.status)).toEqual(['cancelled', 'booked']);
  });

  it('never touches a clean that has started', async () => {
    const { auth, pro } = await newPro(h);
    const a = feed(AIRBNB_PRODID, [airbnbStay('p1', '2026-11-22', '2026-11-24')]);
    const house = await addHouse(auth, [a.url]);
    await sync(auth, house.property_id);
    const [clean] = await bookingsOf(pro.id);
    expect(clean!.starts_at.toISOString()).toBe('2026-11-24T16:00:00.000Z');
    h.clock.now = new Date('2026-11-24T17:00:00Z'); // an hour into the clean
    a.set([airbnbStay('p2', '2026-12-10', '2026-12-12')]);
    await sync(auth, house.property_id);
    expect((await bookingsOf(pro.id)).map((b) => [b.id === clean!.id, b.status])).toEqual([
      [true, 'booked'],
      [false, 'booked'],
    ]);
  });

  it('in propose mode stores the proposed start instead of booking', async () => {
    const { auth, pro } = await newPro(h);
    const a = feed(AIRBNB_PRODID, [airbnbStay('m1', '2026-11-25', '2026-11-27')]);
    const house = await addHouse(auth, [a.url], { mode: 'propose', checkout_time: '10:00' });
    const synced = await sync(auth, house.property_id);
    expect(synced.stays.map((s: Json) => [s.clean, s.start, s.booking_id])).toEqual([['proposed', '2026-11-27T10:00:00-05:00', null]]);
    expect(await bookingsOf(pro.id)).toEqual([]);
  });
});

describe('remove_property', () => {
  it('is refused while turnovers are upcoming, and with cancel_turnovers cancels them and removes the property', async () => {
    const { auth, pro } = await newPro(h);
    const house = await addHouse(auth, [feed(AIRBNB_PRODID, [airbnbStay('d1', '2026-11-25', '2026-11-27')]).url]);
    await sync(auth, house.property_id);
    const refused = await post(auth, 'remove_property', { property_id: house.property_id }).expect(400);
    expect(refused.body.error).toMatch(/still has 1 upcoming turnover; send cancel_turnovers: true/);
    const removed = await post(auth, 'remove_property', { property_id: house.property_id, cancel_turnovers: true }).expect(200);
    expect(removed.body).toMatchObject({ removed: true, turnovers_cancelled: 1 });
    expect((await bookingsOf(pro.id)).map((b) => b.status)).toEqual(['cancelled']);
    expect((await get(auth, 'list_properties').expect(200)).body.properties).toEqual([]);
  });
});

describe('the feed worker', () => {
  it('reads due feeds on two replicas at once without reading one twice or booking one stay twice', async () => {
    const { auth, pro } = await newPro(h);
    const a = feed(AIRBNB_PRODID, [airbnbStay('w1', '2026-11-25', '2026-11-27'), airbnbStay('w2', '2026-11-29', '2026-12-01')]);
    const b = feed(VRBO_PRODID, [vrboStay('w-v', '2026-11-29', '2026-12-01')]);
    await addHouse(auth, [a.url, b.url]);
    const reader = createFeedReader({ allowLoopback: true });
    const now = h.clock.now;
    const due = await h.t.db.selectFrom('property_feeds').select('id').where('next_read_at', '<=', now).execute();
    const ticks = await Promise.all(['replica-1', 'replica-2'].map((holder) => syncDueFeeds(h.t.db, { reader, holder, now, limit: 10, leaseSeconds: 60 })));
    expect(ticks.reduce((x, y) => x + y, 0)).toBe(due.length);
    expect([cal.hits.get(a.path), cal.hits.get(b.path)]).toEqual([1, 1]);
    expect((await bookingsOf(pro.id)).filter((x) => x.status === 'booked')).toHaveLength(2);
    // Nothing is due again until its next read.
    expect(await syncDueFeeds(h.t.db, { reader, holder: 'replica-1', now, limit: 10, leaseSeconds: 60 })).toBe(0);
  });

  it("reads every due feed in one tick, batch after batch, applying one business's properties one after another", async () => {
    const { auth, pro } = await newPro(h);
    const feeds = [0, 1, 2].map((i) => feed(AIRBNB_PRODID, [airbnbStay(`d${i}`, `2026-12-0${1 + i}`, `2026-12-0${2 + i}`)]));
    for (const [i, f] of feeds.entries()) await addHouse(auth, [f.url], { name: `House ${i}` });
    const now = h.clock.now;
    const due = await h.t.db.selectFrom('property_feeds').select('id').where('next_read_at', '<=', now).execute();
    expect(due.length).toBeGreaterThanOrEqual(3);
    // Batches of one: the tick goes on while they come back full.
    await feedsWorker(h.t.db, createFeedReader({ allowLoopback: true }), { limit: 1 }).run(now);
    expect(feeds.map((f) => cal.hits.get(f.path))).toEqual([1, 1, 1]);
    expect(await h.t.db.selectFrom('property_feeds').select('id').where('next_read_at', '<=', now).execute()).toEqual([]);
    expect((await bookingsOf(pro.id)).map((b) => [b.status, b.property_id !== null])).toEqual([
      ['booked', true],
      ['booked', true],
      ['booked', true],
    ]);
  });

  it('books one clean per stay when two replicas sync one property at the same moment', async () => {
    const { auth, pro } = await newPro(h);
    const house = await addHouse(auth, [feed(AIRBNB_PRODID, [airbnbStay('t1', '2026-11-25', '2026-11-27'), airbnbStay('t2', '2026-11-28', '2026-11-30')]).url]);
    await Promise.all([post(auth, 'sync_property', { property_id: house.property_id }), post(auth, 'sync_property', { property_id: house.property_id })]);
    expect((await bookingsOf(pro.id)).filter((x) => x.status === 'booked')).toHaveLength(2);
    const stays = await h.t.db.selectFrom('stays').select('booking_id').where('property_id', '=', house.property_id).execute();
    expect(stays).toHaveLength(2);
  });
});
