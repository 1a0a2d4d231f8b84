// hold_time, release_hold and book_cleaning with hold_id (src/operations/holds.ts): a held time
// is taken for everyone else until it is booked, released or expires, with no worker running.
import { bothHostsPerFile, newCleaner, asPublic, booking, type Hosts } from '@frontdesk/dev-env/both-hosts';

const h = bothHostsPerFile();

const START = '2026-11-24T09:00:00-05:00';
const ANA = { ...asPublic, 'X-User-Email': 'ana@example.com' };
const BO = { ...asPublic, 'X-User-Email': 'bo@example.com' };
const held = (cleanerId: string, over: Record<string, unknown> = {}) => ({ cleaner_id: cleanerId, start: START, bedrooms: 2, bathrooms: 1, ...over });

/** The starts available_times lists on the held day. */
async function startsOn(hosts: Hosts, cleanerId: string, date = '2026-11-24') {
  const res = await hosts.book
    .get('/api/v1/available_times')
    .set(asPublic)
    .query({ cleaner_id: cleanerId, bedrooms: 2, bathrooms: 1, date, days: 1 })
    .expect(200);
  return (res.body.open_times as { starts: string[] }[]).flatMap((d) => d.starts);
}

const eventsOf = (proId: string) => h.t.db.selectFrom('events').select('kind').where('pro_id', '=', proId).execute();
const mailCount = async () => (await h.t.db.selectFrom('outbox').select('id').execute()).length;

describe('hold_time', () => {
  it('holds a start at its firm total for its caller alone: gone from available_times, refused to another caller, no event, mail or webhook', async () => {
    const c = await newCleaner(h);
    expect(await startsOn(h, c.pro.id)).toContain(START);
    const mails = await mailCount();
    const res = await h.book.post('/api/v1/hold_time').set(ANA).send(held(c.pro.id)).expect(200);
    expect(res.body).toMatchObject({ start: START, label: 'Tue, Nov 24, 9:00 AM EST', total: 125, cleaner: { cleaner_id: c.pro.id }, lead_id: null });
    expect(res.body.hold_id).toMatch(/^hold_[0-9a-z]{14}$/);
    expect(res.body.line_items.length).toBeGreaterThan(0);
    expect(res.body.message).toMatch(/^Tue, Nov 24, 9:00 AM EST is held for you until \d{1,2}:\d\d [AP]M ES?T\. Confirm once, then book with this hold_id/);
    // Ten minutes by the database's clock.
    const row = await h.t.db.selectFrom('holds').selectAll().where('id', '=', res.body.hold_id).executeTakeFirstOrThrow();
    expect(row.expires_at.getTime() - row.created_at.getTime()).toBe(10 * 60_000);
    expect(row).toMatchObject({ host: 'book', owner_credential: 'public', owner_email: 'ana@example.com', price_cents: 12500 });

    expect(await startsOn(h, c.pro.id)).not.toContain(START);
    const refused = await h.book.post('/api/v1/book_cleaning').set(BO).send(booking(c.pro.id)).expect(400);
    expect(refused.body.error).toMatch(/The nearest open times: /);
    const again = await h.book.post('/api/v1/hold_time').set(BO).send(held(c.pro.id)).expect(400);
    expect(again.body.error).toBe(refused.body.error);
    expect(await eventsOf(c.pro.id)).toEqual([]);
    expect(await mailCount()).toBe(mails);
  });

  it('asks the shared key for the user it holds for, and keeps minutes within 1 to 15', async () => {
    const c = await newCleaner(h);
    const anon = await h.book.post('/api/v1/hold_time').set(asPublic).send(held(c.pro.id)).expect(400);
    expect(anon.body.error).toMatch(/send X-User-Email or X-User-Phone to take a hold/);
    for (const minutes of [0, 16]) {
      const res = await h.book.post('/api/v1/hold_time').set(ANA).send(held(c.pro.id, { minutes })).expect(400);
      expect(res.body.error).toMatch(/minutes must be/);
    }
    const byPhone = await h.book
      .post('/api/v1/hold_time')
      .set({ ...asPublic, 'X-User-Phone': '(212) 555-0100' })
      .send(held(c.pro.id, { minutes: 1 }))
      .expect(200);
    // The same phone written another way is the same user.
    await h.book
      .post('/api/v1/release_hold')
      .set({ ...asPublic, 'X-User-Phone': '212 555 0100' })
      .send({ hold_id: byPhone.body.hold_id })
      .expect(200);
  });

  it('answers a retried hold_time with the same Idempotency-Key once: the same hold', async () => {
    const c = await newCleaner(h);
    const first = await h.book.post('/api/v1/hold_time').set(ANA).set('Idempotency-Key', 'hold-1').send(held(c.pro.id)).expect(200);
    const retry = await h.book.post('/api/v1/hold_time').set(ANA).set('Idempotency-Key', 'hold-1').send(held(c.pro.id)).expect(200);
    expect(retry.body).toEqual(first.body);
    expect(await h.t.db.selectFrom('holds').select('id').where('pro_id', '=', c.pro.id).execute()).toHaveLength(1);
  });
});

describe('book_cleaning with hold_id', () => {
  it('books the held start at the held total after a price change, uses the hold up, and writes what an ordinary booking writes', async () => {
    const c = await newCleaner(h);
    const hold = (await h.book.post('/api/v1/hold_time').set(ANA).send(held(c.pro.id)).expect(200)).body;
    await h.pro
      .post('/api/v1/update_business')
      .set(c.auth)
      .send({ prices: { base: 200 } })
      .expect(200);
    const mails = await mailCount();
    const body = booking(c.pro.id, { hold_id: hold.hold_id, expected_total: 125 });
    const first = await h.book.post('/api/v1/book_cleaning').set(ANA).set('Idempotency-Key', 'book-held').send(body).expect(200);
    expect(first.body).toMatchObject({ status: 'booked', start: START, total: 125, crew_id: hold.crew_id });
    expect(first.body.line_items).toEqual(hold.line_items);
    // Answered once: the retry gets the same booking (with a fresh manage token, as any retry).
    const retry = await h.book.post('/api/v1/book_cleaning').set(ANA).set('Idempotency-Key', 'book-held').send(body).expect(200);
    expect(retry.body.booking_id).toBe(first.body.booking_id);
    expect(await eventsOf(c.pro.id)).toEqual([{ kind: 'booking.created' }]);
    // The customer's confirmation and the owner's notice, as any booking on the book host (the retry's new link too).
    expect(await mailCount()).toBeGreaterThan(mails);
    const row = await h.t.db.selectFrom('holds').selectAll().where('id', '=', hold.hold_id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ booking_id: first.body.booking_id });
    expect(row.used_at).not.toBeNull();

    const used = await h.book.post('/api/v1/book_cleaning').set(ANA).send(body).expect(400);
    expect(used.body.error).toMatch(new RegExp(`^Hold ${hold.hold_id} was already used to book; nothing was booked\\. The nearest open times for this job: `));
    // Releasing a used hold leaves the booking alone.
    const released = await h.book.post('/api/v1/release_hold').set(ANA).send({ hold_id: hold.hold_id }).expect(200);
    expect(released.body).toMatchObject({ status: 'used' });
  });

  it("answers 404 to anyone but the hold's owner, on book_cleaning and release_hold", async () => {
    const c = await newCleaner(h);
    const hold = (await h.book.post('/api/v1/hold_time').set(ANA).send(held(c.pro.id)).expect(200)).body;
    const notFound = new RegExp(`^No hold with id ${hold.hold_id} for this caller`);
    expect(
      (
        await h.book
          .post('/api/v1/book_cleaning')
          .set(BO)
          .send(booking(c.pro.id, { hold_id: hold.hold_id }))
          .expect(404)
      ).body.error,
    ).toMatch(notFound);
    expect((await h.book.post('/api/v1/release_hold').set(BO).send({ hold_id: hold.hold_id }).expect(404)).body.error).toMatch(notFound);
    // The business's own key is another credential.
    expect((await h.pro.post('/api/v1/release_hold').set(c.auth).send({ hold_id: hold.hold_id }).expect(404)).body.error).toMatch(notFound);
    await h.book.post('/api/v1/release_hold').set(BO).send({ hold_id: 'hold_nonexistent0000' }).expect(404);
    expect(await startsOn(h, c.pro.id)).not.toContain(START);
  });

  it('refuses a call that differs from the hold: another start or job', async () => {
    const c = await newCleaner(h);
    const hold = (await h.book.post('/api/v1/hold_time').set(ANA).send(held(c.pro.id)).expect(200)).body;
    const otherStart = await h.book
      .post('/api/v1/book_cleaning')
      .set(ANA)
      .send(booking(c.pro.id, { hold_id: hold.hold_id, start: '2026-11-24T13:00:00-05:00' }))
      .expect(400);
    expect(otherStart.body.error).toMatch(/^start does not match the hold, which keeps Tue, Nov 24, 9:00 AM EST/);
    const otherJob = await h.book
      .post('/api/v1/book_cleaning')
      .set(ANA)
      .send(booking(c.pro.id, { hold_id: hold.hold_id, bedrooms: 3 }))
      .expect(400);
    expect(otherJob.body.error).toMatch(/^the job does not match the hold/);
  });
});

/** The 400 a customer hears booking with a hold that is gone. */
const refusedWithHold = async (cleanerId: string, holdId: string): Promise<string> =>
  (
    await h.book
      .post('/api/v1/book_cleaning')
      .set(ANA)
      .send(booking(cleanerId, { hold_id: holdId }))
      .expect(400)
  ).body.error;

describe('release_hold', () => {
  it('frees the time at once, again without harm; a released hold books nothing', async () => {
    const c = await newCleaner(h);
    const hold = (await h.book.post('/api/v1/hold_time').set(ANA).send(held(c.pro.id)).expect(200)).body;
    const first = await h.book.post('/api/v1/release_hold').set(ANA).send({ hold_id: hold.hold_id }).expect(200);
    expect(first.body).toEqual({ hold_id: hold.hold_id, status: 'released', message: 'Tue, Nov 24, 9:00 AM EST is free again; the hold is released.' });
    expect(await startsOn(h, c.pro.id)).toContain(START);
    await h.book.post('/api/v1/release_hold').set(ANA).send({ hold_id: hold.hold_id }).expect(200);
    expect(await refusedWithHold(c.pro.id, hold.hold_id)).toMatch(
      /was released; nothing was booked\. The nearest open times for this job: [^.]*Tue, Nov 24, 9:00 AM EST/,
    );
    await h.book.post('/api/v1/book_cleaning').set(BO).send(booking(c.pro.id)).expect(200);
  });
});

describe('over MCP', () => {
  const call = (headers: Record<string, string>, name: string, args: Record<string, unknown>) =>
    h.book
      .post('/mcp')
      .set(headers)
      .send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } })
      .expect(200);

  it('holds, books with the hold and refuses a stranger, as over REST', async () => {
    const c = await newCleaner(h);
    const hold = (await call(ANA, 'hold_time', held(c.pro.id))).body.result.structuredContent;
    expect(hold).toMatchObject({ start: START, total: 125 });
    const stranger = (await call(BO, 'book_cleaning', booking(c.pro.id, { hold_id: hold.hold_id }))).body.result;
    expect(stranger).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/^No hold with id/) }] });
    const booked = (await call(ANA, 'book_cleaning', booking(c.pro.id, { hold_id: hold.hold_id }))).body.result;
    expect(booked.structuredContent).toMatchObject({ status: 'booked', start: START });
    const released = (await call(ANA, 'release_hold', { hold_id: hold.hold_id })).body.result.structuredContent;
    expect(released.status).toBe('used');
  });

  it('teaches the flow in the descriptions, with the hints right', async () => {
    const { body } = await h.book.post('/mcp').set(asPublic).send({ jsonrpc: '2.0', id: 1, method: 'tools/list' }).expect(200);
    const tools = new Map((body.result.tools as { name: string; description: string; annotations: Record<string, boolean> }[]).map((t) => [t.name, t]));
    expect(tools.get('hold_time')!.description).toMatch(/confirm once with the user and book_cleaning with the hold_id; release_hold if they decline/);
    expect(tools.get('hold_time')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(tools.get('release_hold')!.annotations).toMatchObject({ idempotentHint: true });
  });
});

describe('an expired hold', () => {
  it('stops counting at expires_at with no worker running: the start is open and bookable, and booking with it is a 400 with fresh times', async () => {
    const c = await newCleaner(h);
    const hold = (
      await h.book
        .post('/api/v1/hold_time')
        .set(ANA)
        .send(held(c.pro.id, { minutes: 1 }))
        .expect(200)
    ).body;
    expect(await startsOn(h, c.pro.id)).not.toContain(START);
    const row = await h.t.db.selectFrom('holds').select('expires_at').where('id', '=', hold.hold_id).executeTakeFirstOrThrow();
    // Waited out for real: nothing fakes the database's clock.
    await new Promise((resolve) => setTimeout(resolve, row.expires_at.getTime() - Date.now() + 1500));
    expect(await startsOn(h, c.pro.id)).toContain(START);
    expect(await refusedWithHold(c.pro.id, hold.hold_id)).toMatch(
      /has expired; nothing was booked\. The nearest open times for this job: [^.]*Tue, Nov 24, 9:00 AM EST/,
    );
    await h.book.post('/api/v1/book_cleaning').set(BO).send(booking(c.pro.id)).expect(200);
  }, 120_000);
});
