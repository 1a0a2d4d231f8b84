// book_cleaning, cancel_booking, booking_status and my_bookings (src/operations/bookings.ts).
import { issuePersonalKey } from '@frontdesk/use-cases';
import { hashSecret } from '@frontdesk/db/testing';
import { revokePersonalKey } from '@frontdesk/db';
import { bothHostsPerFile, newCleaner, asPublic, booking, MONDAY_7AM, PUBLIC_KEY, bookWeekly, bookCleaning } from '@frontdesk/dev-env/both-hosts';

const h = bothHostsPerFile();

const HOUR = 3_600_000;

describe('book_cleaning', () => {
  it('books at the firm price and lands on the pro side: schedule with a notification naming the assistant, updates, pipeline fee', async () => {
    const c = await newCleaner(h);
    const res = await bookCleaning(h, booking(c.pro.id, { access_details: 'Key under the mat' }), { 'X-Client-Name': 'ChatGPT' }).expect(200);
    expect(res.body).toMatchObject({
      status: 'booked',
      total: 125,
      label: 'Tue, Nov 24, 9:00 AM EST',
      access_details: 'Key under the mat',
      cleaner: { cleaner_id: c.pro.id },
    });
    expect(res.body).not.toHaveProperty('fee');
    expect(res.body.manage_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.body.shared_with_cleaner).toEqual(['name', 'email', 'address']);
    expect(res.body.message).toMatch(/no added fees.*will contact Ana Lopez about access and payment/);
    const row = await h.t.db.selectFrom('bookings').selectAll().where('id', '=', res.body.booking_id).executeTakeFirstOrThrow();
    expect(row.manage_token_hash).toEqual(hashSecret(res.body.manage_token));
    expect(JSON.stringify(row)).not.toContain(res.body.manage_token);
    expect(row).toMatchObject({ channel: 'book', fee_cents: 500, client_name: 'ChatGPT', account_email: null });

    const sched = await h.pro.get('/api/v1/schedule').set(c.auth).expect(200);
    expect(sched.body.jobs.map((j: { booking_id: string }) => j.booking_id)).toEqual([res.body.booking_id]);
    expect(sched.body.notifications).toHaveLength(1);
    expect(sched.body.notifications[0].message).toMatch(/^New booking by ChatGPT through the booking service: Ana Lopez, Tue, Nov 24, 9:00 AM EST/);
    const updates = await h.pro.get('/api/v1/updates').set(c.auth).query({ since: 0 }).expect(200);
    expect(updates.body.events[0]).toMatchObject({ kind: 'booking.created', channel: 'book', client_name: 'ChatGPT', booking_id: res.body.booking_id });
    const pipeline = await h.pro.get('/api/v1/pipeline').set(c.auth).expect(200);
    expect(pipeline.body.customers_brought_by_service).toMatchObject({ bookings: 1, value: 125, fees_due: 5 });
  });

  it("fills the customer's details from the X-User-* headers and checks them like fields", async () => {
    const c = await newCleaner(h);
    const body = booking(c.pro.id, { customer_name: undefined, customer_email: undefined });
    const ok = await bookCleaning(h, body, { 'X-User-Name': 'Bo Diaz', 'X-User-Phone': '+1 (646) 555-0199' }).expect(200);
    expect(ok.body.customer).toEqual({ name: 'Bo Diaz', phone: '+1 (646) 555-0199', email: null });
    const badEmail = await bookCleaning(h, body, { 'X-User-Name': 'Bo', 'X-User-Email': 'not-an-email' }).expect(400);
    expect(badEmail.body.error).toMatch(/X-User-Email header "not-an-email" is not an email address/);
    const longName = await h.book
      .get('/api/v1/find_cleaners')
      .set(asPublic)
      .set('X-User-Name', 'n'.repeat(101))
      .query({ zip: '10001', bedrooms: 1, bathrooms: 1 })
      .expect(400);
    expect(longName.body.error).toMatch(/X-User-Name header must be at most 100 characters/);
    const noName = await h.book.post('/api/v1/book_cleaning').set(asPublic).send(body).expect(400);
    expect(noName.body.error).toMatch(/customer_name is required \(or send the X-User-Name header\)/);
    const noContact = await h.book.post('/api/v1/book_cleaning').set(asPublic).set('X-User-Name', 'Bo').send(body).expect(400);
    expect(noContact.body.error).toMatch(/Give customer_phone or customer_email \(or send X-User-Phone or X-User-Email\)/);
  });

  it('refuses a changed price instead of charging it, and books when the price matches', async () => {
    const c = await newCleaner(h);
    const res = await bookCleaning(h, booking(c.pro.id, { expected_total: 110 })).expect(400);
    expect(res.body.error).toMatch(/The price changed: this job is now \$125\.00, not the \$110\.00 you were shown\. Nothing was booked/);
    expect(await h.t.db.selectFrom('bookings').select('id').where('pro_id', '=', c.pro.id).execute()).toEqual([]);
    await bookCleaning(h, booking(c.pro.id, { expected_total: 125 })).expect(200);
  });

  it.each([
    ['a ZIP the cleaner does not serve', { zip: '94105' }, 400, /does not serve ZIP 94105/],
    ['an unknown cleaner', { cleaner_id: 'pro_nobody' }, 404, /No cleaner with id pro_nobody/],
    ['a start outside hours', { start: '2026-11-24T19:00:00-05:00' }, 400, /outside working hours/],
    ['a start too soon', { start: '2026-11-23T13:00:00-05:00' }, 400, /too soon/],
    ['a long access note', { access_details: 'a'.repeat(501) }, 400, /access_details must be at most 500 characters long/],
    ['an unknown field', { tip: 10 }, 400, /tip is not a field of this operation/],
  ])('refuses %s and writes nothing', async (_what, over, status, message) => {
    const c = await newCleaner(h);
    const res = await h.book.post('/api/v1/book_cleaning').set(asPublic).send(booking(c.pro.id, over)).expect(status);
    expect(res.body.error).toMatch(message);
    expect(await h.t.db.selectFrom('bookings').select('id').where('pro_id', '=', c.pro.id).execute()).toEqual([]);
  });

  it('settles a race between book_job on the pro host and book_cleaning on the book host: one booking', async () => {
    const c = await newCleaner(h);
    const pro = Array.from({ length: 10 }, () =>
      h.pro.post('/api/v1/book_job').set(c.auth).send({
        bedrooms: 2,
        bathrooms: 1,
        start: '2026-11-25T09:00:00-05:00',
        customer_name: 'P',
        customer_phone: '5550100999',
        address: '1 Main St',
        zip: '10001',
      }),
    );
    const book = Array.from({ length: 10 }, () => bookCleaning(h, booking(c.pro.id, { start: '2026-11-25T09:00:00-05:00' })));
    const results = await Promise.all([...pro, ...book]);
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(400);
      expect(r.body.error).toMatch(/was just taken/);
    }
    expect(await h.t.db.selectFrom('bookings').select('id').where('pro_id', '=', c.pro.id).execute()).toHaveLength(1);
  });
});

describe('managing a booking with its manage_token', () => {
  const book = async () => {
    const c = await newCleaner(h);
    const res = await bookCleaning(h, booking(c.pro.id, { start: '2026-11-25T09:00:00-05:00' })).expect(200);
    return { c, token: res.body.manage_token as string, id: res.body.booking_id as string };
  };

  it('cancels free more than 24 h ahead; the pro sees it in updates and schedule, and no fee is due', async () => {
    const { c, token, id } = await book();
    const status = await h.book.get('/api/v1/booking_status').set(asPublic).query({ manage_token: token }).expect(200);
    expect(status.body).toMatchObject({ booking_id: id, status: 'booked' });
    const res = await h.book.post('/api/v1/cancel_booking').set(asPublic).send({ manage_token: token }).expect(200);
    expect(res.body).toMatchObject({ status: 'cancelled', within_24_hours: false });
    expect(res.body.message).toMatch(/free of charge/);
    const updates = await h.pro.get('/api/v1/updates').set(c.auth).query({ since: 1 }).expect(200);
    expect(updates.body.events).toMatchObject([{ kind: 'booking.cancelled', cancelled_by: 'customer', booking_id: id }]);
    const sched = await h.pro.get('/api/v1/schedule').set(c.auth).expect(200);
    expect(sched.body.jobs).toEqual([]);
    expect(sched.body.notifications.map((n: { kind: string }) => n.kind)).toEqual(['booking.created', 'booking.cancelled']);
    const pipeline = await h.pro.get('/api/v1/pipeline').set(c.auth).expect(200);
    expect(pipeline.body.customers_brought_by_service).toMatchObject({ bookings: 0, cancelled: 1, fees_due: 0 });
    expect((await h.book.get('/api/v1/booking_status').set(asPublic).query({ manage_token: token }).expect(200)).body.status).toBe('cancelled');
    const again = await h.book.post('/api/v1/cancel_booking').set(asPublic).send({ manage_token: token }).expect(400);
    expect(again.body.error).toMatch(/already cancelled/);
  });

  it('says whether a series has ended: not after one visit is cancelled, and once this and all later visits are', async () => {
    const c = await newCleaner(h);
    const made = await bookWeekly(h, c.pro.id, '2026-11-25T09:00:00-05:00');
    const status = async (token: string) => (await h.book.get('/api/v1/booking_status').set(asPublic).query({ manage_token: token }).expect(200)).body;
    const visits = made.series.visits as { booking_id: string }[];
    expect((await status(made.manage_token)).series_ended).toBe(false);
    await h.book.post('/api/v1/cancel_booking').set(asPublic).send({ manage_token: made.manage_token, visit_id: visits[1]!.booking_id }).expect(200);
    expect((await status(made.manage_token)).series_ended).toBe(false);
    await h.book
      .post('/api/v1/cancel_booking')
      .set(asPublic)
      .send({ manage_token: made.manage_token, visit_id: visits[3]!.booking_id, and_following: true })
      .expect(200);
    const ended = await status(made.manage_token);
    expect(ended.series_ended).toBe(true);
    expect(ended.series_visits.filter((v: { status: string }) => v.status === 'booked').map((v: { booking_id: string }) => v.booking_id)).toEqual([
      visits[0]!.booking_id,
      visits[2]!.booking_id,
    ]);
    // One cleaning is no series: it never ends as one.
    const single = (await bookCleaning(h, booking(c.pro.id, { start: '2026-11-27T09:00:00-05:00' })).expect(200)).body;
    await h.book.post('/api/v1/cancel_booking').set(asPublic).send({ manage_token: single.manage_token }).expect(200);
    expect((await status(single.manage_token)).series_ended).toBe(false);
  });

  it('still cancels within 24 h but says the cleaner may charge', async () => {
    const { token } = await book();
    h.clock.now = new Date(Date.parse('2026-11-25T14:00:00Z') - 10 * HOUR);
    const res = await h.book.post('/api/v1/cancel_booking').set(asPublic).send({ manage_token: token }).expect(200);
    expect(res.body.within_24_hours).toBe(true);
    expect(res.body.message).toMatch(/less than 24 hours away, so .* may charge under their own cancellation policy/);
  });

  it('refuses a malformed token (400) and an unknown one (404), changing nothing', async () => {
    const { id } = await book();
    const malformed = await h.book.post('/api/v1/cancel_booking').set(asPublic).send({ manage_token: 'abc' }).expect(400);
    expect(malformed.body.error).toMatch(/manage_token must be in the form/);
    await h.book
      .get('/api/v1/booking_status')
      .set(asPublic)
      .query({ manage_token: 'x'.repeat(43) })
      .expect(404);
    await h.book
      .post('/api/v1/cancel_booking')
      .set(asPublic)
      .send({ manage_token: 'y'.repeat(43) })
      .expect(404);
    const row = await h.t.db.selectFrom('bookings').select('status').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.status).toBe('booked');
  });
});

describe('credentials', () => {
  it('401 without a key or with a wrong or revoked one', async () => {
    const none = await h.book.get('/api/v1/my_bookings').expect(401);
    expect(none.headers['www-authenticate']).toMatch(/^Bearer realm="booking"/);
    await h.book.get('/api/v1/my_bookings').set('Authorization', 'Bearer fdpub_wrong_key_123').expect(401);
    const { key, record } = await issuePersonalKey(h.t.db, 'Revoked@Example.com');
    await h.book.get('/api/v1/my_bookings').set('Authorization', `Bearer ${key}`).expect(200);
    await revokePersonalKey(h.t.db, record.id, 'revoked@example.com', new Date());
    await h.book.get('/api/v1/my_bookings').set('Authorization', `Bearer ${key}`).expect(401);
  });

  it("my_bookings lists a personal key's bookings newest first, and none with the public key", async () => {
    const c = await newCleaner(h);
    const { key } = await issuePersonalKey(h.t.db, 'kim@example.com');
    const mine = { Authorization: `Bearer ${key}` };
    const first = await h.book
      .post('/api/v1/book_cleaning')
      .set(mine)
      .send(booking(c.pro.id, { customer_email: undefined, start: '2026-11-24T09:00:00-05:00' }))
      .expect(200);
    expect(first.body.customer.email).toBe('kim@example.com');
    h.clock.now = new Date(MONDAY_7AM.getTime() + HOUR);
    const second = await h.book
      .post('/api/v1/book_cleaning')
      .set(mine)
      .send(booking(c.pro.id, { start: '2026-11-26T09:00:00-05:00' }))
      .expect(200);
    await bookCleaning(h, booking(c.pro.id, { start: '2026-11-27T09:00:00-05:00', customer_email: 'kim@example.com' })).expect(200);
    const list = await h.book.get('/api/v1/my_bookings').set(mine).expect(200);
    expect(list.body.bookings.map((b: { booking_id: string }) => b.booking_id)).toEqual([second.body.booking_id, first.body.booking_id]);
    const pub = await h.book.get('/api/v1/my_bookings').set(asPublic).expect(200);
    expect(pub.body).toMatchObject({ count: 0, bookings: [] });
    expect(pub.body.message).toMatch(/use booking_status with the manage_token/i);
  });

  it('describes the ten operations and the X-User headers in /openapi.json', async () => {
    const doc = (await h.book.get('/openapi.json').expect(200)).body;
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        'available_times',
        'book_cleaning',
        'booking_status',
        'cancel_booking',
        'find_cleaners',
        'hold_time',
        'my_bookings',
        'release_hold',
        'request_turnovers',
        'reschedule_booking',
      ].map((n) => `/api/v1/${n}`),
    );
    const names = doc.paths['/api/v1/book_cleaning'].post.parameters.map((p: { name: string }) => p.name);
    expect(names).toEqual(['X-Client-Name', 'Idempotency-Key', 'X-User-Name', 'X-User-Email', 'X-User-Phone']);
    expect(PUBLIC_KEY).toMatch(/^fdpub_/);
  });
});
