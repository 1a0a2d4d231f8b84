// hold_time, release_hold, book_job with hold_id and the holds schedule lists (src/operations/holds.ts):
// a business pencils in a lead's time on its own schedule while it waits for the answer.
import { proDeskHarnessPerFile, newPro, validBooking } from '@frontdesk/dev-env/pro-desk';
import { listenOn, mcpClient } from '@frontdesk/dev-env/mcp-client';
import { startsOf } from '@frontdesk/domain';

const h = proDeskHarnessPerFile();
type Json = Record<string, any>;
type Auth = Record<string, string>;

const START = '2026-11-24T09:00:00-05:00';
const post = (auth: Auth, op: string, body: object) => h.api.post(`/api/v1/${op}`).set(auth).send(body);
const get = (auth: Auth, op: string, query: object = {}) => h.api.get(`/api/v1/${op}`).set(auth).query(query);
const startsOn = async (auth: Auth, crewId?: string): Promise<string[]> =>
  startsOf(
    (await get(auth, 'open_times', { bedrooms: 2, bathrooms: 1, date: '2026-11-24', days: 1, ...(crewId ? { crew_id: crewId } : {}) }).expect(200)).body
      .open_times,
  );

describe('hold_time on the pro host', () => {
  it("pencils in a lead's time for an hour by default, lists it on schedule, and writes no event", async () => {
    const { auth, pro } = await newPro(h);
    const lead = (
      await post(auth, 'log_lead', {
        source: 'website',
        customer_first_name: 'Dana',
        contact: 'dana@example.com',
        zip: '10001',
        bedrooms: 2,
        bathrooms: 1,
      }).expect(200)
    ).body.lead;
    const res = await post(auth, 'hold_time', { bedrooms: 2, bathrooms: 1, start: START, lead_id: lead.lead_id }).expect(200);
    expect(res.body).toMatchObject({ start: START, lead_id: lead.lead_id, total: 125 });
    expect(res.body.message).toMatch(/^Tue, Nov 24, 9:00 AM EST \(.+\) is pencilled in until \d{1,2}:\d\d [AP]M ES?T\. Book it with book_job and this hold_id/);
    const row = await h.t.db.selectFrom('holds').selectAll().where('id', '=', res.body.hold_id).executeTakeFirstOrThrow();
    expect(row.expires_at.getTime() - row.created_at.getTime()).toBe(60 * 60_000);
    expect(row).toMatchObject({ host: 'pro', owner_credential: `pro:${pro.id}`, lead_id: lead.lead_id });
    expect(await startsOn(auth)).not.toContain(START);
    const sched = (await get(auth, 'schedule').expect(200)).body;
    expect(sched.count).toBe(0);
    expect(sched.holds).toHaveLength(1);
    expect(sched.holds[0]).toMatchObject({ hold_id: res.body.hold_id, lead_id: lead.lead_id });
    expect(sched.holds[0].message).toMatch(/pencilled in for Dana until/);
    const events = await h.t.db.selectFrom('events').select('kind').where('pro_id', '=', pro.id).execute();
    expect(events.map((e) => e.kind)).not.toContain('booking.created');
    // Up to two days, named as a day when it runs past the hours.
    const long = await post(auth, 'hold_time', { bedrooms: 2, bathrooms: 1, start: '2026-11-24T13:00:00-05:00', minutes: 2880 }).expect(200);
    expect(long.body.message).toMatch(/pencilled in until \w{3}, \w{3} \d+, /);
    expect((await post(auth, 'hold_time', { bedrooms: 2, bathrooms: 1, start: START, minutes: 2881 }).expect(400)).body.error).toMatch(/minutes must be/);
  });

  it('books the pencilled-in start with book_job and the hold_id at the held total, on the held crew', async () => {
    const { auth, pro } = await newPro(h);
    const b = (await post(auth, 'add_crew', { name: 'Team B' }).expect(200)).body;
    const hold = (await post(auth, 'hold_time', { bedrooms: 2, bathrooms: 1, start: START, crew_id: b.crew_id }).expect(200)).body;
    expect(hold).toMatchObject({ crew_id: b.crew_id, crew_name: 'Team B' });
    expect(await startsOn(auth, b.crew_id)).not.toContain(START);
    // The other crew still takes the start without the hold.
    expect(await startsOn(auth)).toContain(START);
    await post(auth, 'update_business', { prices: { base: 200 } }).expect(200);
    const wrongCrew = await post(
      auth,
      'book_job',
      validBooking({ hold_id: hold.hold_id, crew_id: (await get(auth, 'my_business')).body.crews[0].crew_id }),
    ).expect(400);
    expect(wrongCrew.body.error).toMatch(/^crew_id does not match the hold/);
    const booked = await post(auth, 'book_job', validBooking({ hold_id: hold.hold_id })).expect(200);
    expect(booked.body).toMatchObject({ start: START, crew_id: b.crew_id, total: 125 });
    const sched = (await get(auth, 'schedule').expect(200)).body;
    expect(sched.holds).toEqual([]);
    expect(sched.jobs.map((j: Json) => j.booking_id)).toEqual([booked.body.booking_id]);
    const events = await h.t.db.selectFrom('events').select('kind').where('pro_id', '=', pro.id).where('kind', 'like', 'booking.%').execute();
    expect(events).toEqual([{ kind: 'booking.created' }]);
  });

  it("refuses a start inside another job's travel buffer for that reason, as book_job does, even a moment after the job was booked", async () => {
    const { auth, pro } = await newPro(h);
    await post(auth, 'book_job', validBooking()).expect(200); // 9:00-10:15, its travel buffer to 10:45
    const buffered = '2026-11-24T10:30:00-05:00';
    const said = /^Tue, Nov 24, 10:30 AM EST is taken: it overlaps another job or its 30-minute travel buffer\. The nearest open times: /;
    const held = await post(auth, 'hold_time', { bedrooms: 2, bathrooms: 1, start: buffered }).expect(400);
    expect(held.body.error).toMatch(said);
    const booked = await post(auth, 'book_job', validBooking({ start: buffered, customer_name: 'Bo' })).expect(400);
    expect(booked.body.error).toMatch(said);
    // A start the job itself was booked into a moment ago is still a lost race, in both.
    const race = /^Tue, Nov 24, 9:30 AM EST was just taken by another booking\./;
    expect((await post(auth, 'hold_time', { bedrooms: 2, bathrooms: 1, start: '2026-11-24T09:30:00-05:00' }).expect(400)).body.error).toMatch(race);
    expect((await post(auth, 'book_job', validBooking({ start: '2026-11-24T09:30:00-05:00' })).expect(400)).body.error).toMatch(race);
    expect(await h.t.db.selectFrom('holds').select('id').where('pro_id', '=', pro.id).execute()).toEqual([]);
  });

  it('releases at once and twice without harm; a customer credential cannot see it', async () => {
    const { auth } = await newPro(h);
    const other = await newPro(h);
    const hold = (await post(auth, 'hold_time', { bedrooms: 2, bathrooms: 1, start: START }).expect(200)).body;
    expect((await post(other.auth, 'release_hold', { hold_id: hold.hold_id }).expect(404)).body.error).toMatch(/^No hold with id/);
    expect((await post(other.auth, 'book_job', validBooking({ hold_id: hold.hold_id })).expect(404)).body.error).toMatch(/^No hold with id/);
    await post(auth, 'release_hold', { hold_id: hold.hold_id }).expect(200);
    expect(await startsOn(auth)).toContain(START);
    expect((await post(auth, 'release_hold', { hold_id: hold.hold_id }).expect(200)).body.status).toBe('released');
    expect((await post(auth, 'book_job', validBooking({ hold_id: hold.hold_id })).expect(400)).body.error).toMatch(/was released; nothing was booked/);
  });

  it('over MCP: holds, lists and books, and says so in the descriptions', async () => {
    const { auth, key } = await newPro(h);
    const server = await listenOn(h.app);
    const client = await mcpClient(server.url, { authorization: `Bearer ${key}` });
    try {
      const { tools } = await client.listTools();
      const hold = tools.find((t) => t.name === 'hold_time')!;
      expect(hold.description).toMatch(/On yes, book_job with the hold_id; else release_hold/);
      expect(hold.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
      expect(tools.find((t) => t.name === 'release_hold')!.annotations).toMatchObject({ idempotentHint: true });
      const held = (await client.callTool({ name: 'hold_time', arguments: { bedrooms: 2, bathrooms: 1, start: START } })).structuredContent as Json;
      expect(held.start).toBe(START);
      const booked = (await client.callTool({ name: 'book_job', arguments: validBooking({ hold_id: held.hold_id }) })).structuredContent as Json;
      expect(booked).toMatchObject({ start: START, total: 125 });
      expect((await get(auth, 'schedule').expect(200)).body.holds).toEqual([]);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
