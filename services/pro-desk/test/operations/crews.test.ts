// add_crew, update_crew, remove_crew and assign_job (src/operations/crews.ts), and what crews
// change for every other operation: capacity, assignment, crew hours and time off, series.
import { proDeskHarnessPerFile, newPro, validBooking } from '@frontdesk/dev-env/pro-desk';
import { listenOn, mcpClient } from '@frontdesk/dev-env/mcp-client';
import { startsOf } from '@frontdesk/domain';

const h = proDeskHarnessPerFile();
type Json = Record<string, any>;
type Auth = Record<string, string>;

const post = (auth: Auth, op: string, body: object) => h.api.post(`/api/v1/${op}`).set(auth).send(body);
const get = (auth: Auth, op: string, query: object = {}) => h.api.get(`/api/v1/${op}`).set(auth).query(query);
const crewsOf = async (auth: Auth): Promise<Json[]> => (await get(auth, 'my_business').expect(200)).body.crews;
const startsOn = async (auth: Auth, date: string, crewId?: string): Promise<string[]> =>
  startsOf((await get(auth, 'open_times', { bedrooms: 2, bathrooms: 1, date, days: 1, ...(crewId ? { crew_id: crewId } : {}) }).expect(200)).body.open_times);
const jobCount = async (auth: Auth) => (await get(auth, 'schedule').expect(200)).body.count as number;

/** A business with a second crew, Team B. */
async function twoCrews(hours?: object) {
  const pro = await newPro(h);
  const [first] = await crewsOf(pro.auth);
  const b = (await post(pro.auth, 'add_crew', { name: 'Team B', ...(hours ? { working_hours: hours } : {}) }).expect(200)).body;
  return { ...pro, a: first!, b };
}

describe('crews of a business', () => {
  it('starts a new business with one crew named after it, and a business of one books as before', async () => {
    const { auth, pro } = await newPro(h);
    const crews = await crewsOf(auth);
    expect(crews).toEqual([
      {
        crew_id: expect.stringMatching(/^crew_[0-9a-z]{14}$/),
        name: pro.name,
        active: true,
        working_hours: expect.any(Object),
        own_hours: false,
        upcoming_jobs: 0,
        email: null,
      },
    ]);
    const job = (await post(auth, 'book_job', validBooking()).expect(200)).body;
    expect(job).toMatchObject({ crew_id: crews[0]!.crew_id, crew_name: pro.name });
    h.clock.now = new Date(h.clock.now.getTime() + 120_000); // past the moment a refusal calls a race
    const again = await post(auth, 'book_job', validBooking()).expect(400);
    expect(again.body.error).toMatch(/is taken: it overlaps another job/);
  });

  it('takes two jobs at one start with two crews, each on its own crew, and refuses the third naming every crew busy', async () => {
    const { auth, a, b } = await twoCrews();
    const first = (await post(auth, 'book_job', validBooking({ customer_name: 'One' })).expect(200)).body;
    const second = (await post(auth, 'book_job', validBooking({ customer_name: 'Two' })).expect(200)).body;
    expect(new Set([first.crew_id, second.crew_id])).toEqual(new Set([a.crew_id, b.crew_id]));
    const race = await post(auth, 'book_job', validBooking({ customer_name: 'Racer' })).expect(400);
    expect(race.body.error).toMatch(/was just taken by another booking\. The nearest open times now: /);
    h.clock.now = new Date(h.clock.now.getTime() + 120_000);
    const third = await post(auth, 'book_job', validBooking({ customer_name: 'Three' })).expect(400);
    expect(third.body.error).toMatch(/every crew is busy then/);
    expect(third.body.error).toMatch(/The nearest open times/);
    expect(await jobCount(auth)).toBe(2);
    // The schedule and the feed name each job's crew.
    const { body: sched } = await get(auth, 'schedule').expect(200);
    expect(sched.jobs.map((j: Json) => j.crew_name).sort()).toEqual([a.name, 'Team B'].sort());
    const onlyB = (await get(auth, 'schedule', { crew_id: b.crew_id }).expect(200)).body;
    expect(onlyB.jobs.map((j: Json) => j.crew_id)).toEqual([b.crew_id]);
    const { body: feed } = await get(auth, 'updates').expect(200);
    const created = feed.events.filter((e: Json) => e.kind === 'booking.created');
    expect(created.map((e: Json) => e.crew_name ?? e.payload?.crew_name).sort()).toEqual([a.name, 'Team B'].sort());
  });

  it('assigns by the documented rule: the free crew with the fewest booked minutes that day, then crew order', async () => {
    const { auth, a, b } = await twoCrews();
    // Both free and both empty: the first crew in order.
    const first = (await post(auth, 'book_job', validBooking({ start: '2026-11-24T08:00:00-05:00' })).expect(200)).body;
    expect(first.crew_id).toBe(a.crew_id);
    // Later that day both are free again: B holds fewer minutes, so B.
    const second = (await post(auth, 'book_job', validBooking({ start: '2026-11-24T14:00:00-05:00' })).expect(200)).body;
    expect(second.crew_id).toBe(b.crew_id);
    // book_job can name the crew.
    const named = (await post(auth, 'book_job', validBooking({ start: '2026-11-25T09:00:00-05:00', crew_id: b.crew_id })).expect(200)).body;
    expect(named).toMatchObject({ crew_id: b.crew_id, crew_name: 'Team B' });
    h.clock.now = new Date(h.clock.now.getTime() + 120_000);
    const busy = await post(auth, 'book_job', validBooking({ start: '2026-11-25T09:00:00-05:00', crew_id: b.crew_id })).expect(400);
    expect(busy.body.error).toMatch(/^Team B cannot take this start: .* is taken/);
  });

  it("changes open times by a crew's own hours and time off", async () => {
    const { auth, a, b } = await twoCrews({ tuesday: ['13:00-17:00'] });
    expect(b.own_hours).toBe(true);
    expect(b.working_hours.tuesday).toEqual(['13:00-17:00']);
    const bTuesday = await startsOn(auth, '2026-11-24', b.crew_id);
    expect(bTuesday.length).toBeGreaterThan(0);
    expect(bTuesday.every((s) => s >= '2026-11-24T13:00')).toBe(true);
    const aTuesday = await startsOn(auth, '2026-11-24', a.crew_id);
    expect(aTuesday[0]).toBe('2026-11-24T08:00:00-05:00');
    expect(await startsOn(auth, '2026-11-24')).toEqual(aTuesday);
    // A on Tuesday morning: B still cannot take the morning (its hours), so 9:00 is gone for everyone.
    await post(auth, 'book_job', validBooking({ start: '2026-11-24T09:00:00-05:00' })).expect(200);
    expect(await startsOn(auth, '2026-11-24')).not.toContain('2026-11-24T09:00:00-05:00');
    expect(await startsOn(auth, '2026-11-24')).toContain('2026-11-24T14:00:00-05:00');
    // A crew's time off takes only its starts; the business's takes all.
    const off = (await post(auth, 'add_time_off', { start: '2026-11-25', end: '2026-11-25', crew_id: a.crew_id }).expect(200)).body;
    expect(off).toMatchObject({ crew_id: a.crew_id, crew_name: a.name });
    expect(await startsOn(auth, '2026-11-25', a.crew_id)).toEqual([]);
    expect(await startsOn(auth, '2026-11-25')).toEqual(await startsOn(auth, '2026-11-25', b.crew_id));
    expect(await startsOn(auth, '2026-11-25')).not.toEqual([]);
    await post(auth, 'add_time_off', { start: '2026-11-25', end: '2026-11-25' }).expect(200);
    expect(await startsOn(auth, '2026-11-25')).toEqual([]);
    const listed = (await get(auth, 'my_business').expect(200)).body.time_off;
    expect(new Set(listed.map((t: Json) => t.crew_name ?? null))).toEqual(new Set([a.name, null]));
    // update_crew back to the business's hours.
    const back = (await post(auth, 'update_crew', { crew_id: b.crew_id, working_hours: null }).expect(200)).body;
    expect(back.own_hours).toBe(false);
    expect(await startsOn(auth, '2026-11-24', b.crew_id)).toContain('2026-11-24T09:00:00-05:00');
  });

  it('keeps a series on its crew and gives a visit to another crew when its own is off, saying so per visit', async () => {
    const { auth, a, b } = await twoCrews();
    await post(auth, 'add_time_off', { start: '2026-12-01', end: '2026-12-01', crew_id: a.crew_id }).expect(200);
    const { body } = await post(auth, 'book_job', validBooking({ frequency: 'weekly', crew_id: a.crew_id })).expect(200);
    const visits = body.series.visits as Json[];
    expect(visits.length).toBeGreaterThan(3);
    expect(visits[0]).toMatchObject({ start: '2026-11-24T09:00:00-05:00', crew_id: a.crew_id });
    expect(visits.find((v) => v.start.startsWith('2026-12-01'))).toMatchObject({ crew_id: b.crew_id, crew_name: 'Team B' });
    expect(visits.filter((v) => !v.start.startsWith('2026-12-01')).every((v) => v.crew_id === a.crew_id)).toBe(true);
    // Off for both: that visit follows the series rules (refused unless skipped).
    const other = await twoCrews();
    await post(other.auth, 'add_time_off', { start: '2026-12-01', end: '2026-12-01' }).expect(200);
    const refused = await post(other.auth, 'book_job', validBooking({ frequency: 'weekly' })).expect(400);
    expect(refused.body.error).toMatch(/Dec 1/);
  });

  it('moves a job by reschedule keeping its crew when free, else to another free crew', async () => {
    const { auth, a, b } = await twoCrews();
    const job = (await post(auth, 'book_job', validBooking({ crew_id: b.crew_id })).expect(200)).body;
    const moved = (await post(auth, 'reschedule_job', { booking_id: job.booking_id, start: '2026-11-24T13:00:00-05:00' }).expect(200)).body;
    expect(moved.crew_id).toBe(b.crew_id);
    await post(auth, 'add_time_off', { start: '2026-11-25', end: '2026-11-25', crew_id: b.crew_id }).expect(200);
    const away = (await post(auth, 'reschedule_job', { booking_id: job.booking_id, start: '2026-11-25T10:00:00-05:00' }).expect(200)).body;
    expect(away.crew_id).toBe(a.crew_id);
  });
});

describe('assign_job', () => {
  it('moves a job to a free crew at the same time and tells the feed', async () => {
    const { auth, a, b } = await twoCrews();
    const job = (await post(auth, 'book_job', validBooking({ crew_id: a.crew_id })).expect(200)).body;
    const res = (await post(auth, 'assign_job', { booking_id: job.booking_id, crew_id: b.crew_id }).expect(200)).body;
    expect(res).toMatchObject({ booking_id: job.booking_id, start: job.start, crew_id: b.crew_id, crew_name: 'Team B', from_crew_id: a.crew_id });
    const { body: feed } = await get(auth, 'updates').expect(200);
    expect(feed.events.map((e: Json) => e.kind)).toContain('booking.assigned');
  });

  it('refuses a busy crew naming the clash, and nothing changes', async () => {
    const { auth, a, b } = await twoCrews();
    const onA = (await post(auth, 'book_job', validBooking({ crew_id: a.crew_id })).expect(200)).body;
    await post(auth, 'book_job', validBooking({ start: '2026-11-24T10:00:00-05:00', crew_id: b.crew_id })).expect(200);
    const res = await post(auth, 'assign_job', { booking_id: onA.booking_id, crew_id: b.crew_id }).expect(400);
    expect(res.body.error).toMatch(/^Team B cannot take this job: The job Tue, Nov 24, 9:00 AM EST overlaps another of its jobs.*Nothing was changed\.$/);
    const after = (await get(auth, 'schedule').expect(200)).body.jobs.find((j: Json) => j.booking_id === onA.booking_id);
    expect(after.crew_id).toBe(a.crew_id);
    await post(auth, 'add_time_off', { start: '2026-11-24', end: '2026-11-24', crew_id: b.crew_id }).expect(200);
    expect((await post(auth, 'assign_job', { booking_id: onA.booking_id, crew_id: a.crew_id }).expect(400)).body.error).toMatch(/already on/);
  });
});

describe('remove_crew', () => {
  it('is refused while the crew has upcoming jobs, and with reassign_to moves them all and removes it in one step', async () => {
    const { auth, a, b } = await twoCrews();
    const jobs = [
      (await post(auth, 'book_job', validBooking({ crew_id: b.crew_id })).expect(200)).body,
      (await post(auth, 'book_job', validBooking({ start: '2026-11-25T09:00:00-05:00', crew_id: b.crew_id })).expect(200)).body,
    ];
    const refused = await post(auth, 'remove_crew', { crew_id: b.crew_id }).expect(400);
    expect(refused.body.error).toMatch(/Team B still has 2 upcoming jobs .*nothing was changed/);
    expect((await crewsOf(auth)).map((c) => c.name)).toContain('Team B');
    // A clash with the crew named to take them refuses it all.
    await post(auth, 'book_job', validBooking({ start: '2026-11-25T09:00:00-05:00', crew_id: a.crew_id })).expect(200);
    const clash = await post(auth, 'remove_crew', { crew_id: b.crew_id, reassign_to: a.crew_id }).expect(400);
    expect(clash.body.error).toMatch(/cannot take every job: The job Wed, Nov 25, 9:00 AM EST overlaps/);
    const still = (await get(auth, 'schedule', { crew_id: b.crew_id }).expect(200)).body.jobs;
    expect(still.map((j: Json) => j.booking_id).sort()).toEqual(jobs.map((j) => j.booking_id).sort());
    // Free the clash, then it goes through.
    const clashing = (await get(auth, 'schedule', { crew_id: a.crew_id }).expect(200)).body.jobs[0];
    await post(auth, 'cancel_job', { booking_id: clashing.booking_id }).expect(200);
    const done = (await post(auth, 'remove_crew', { crew_id: b.crew_id, reassign_to: a.crew_id }).expect(200)).body;
    expect(done).toMatchObject({ removed: true, name: 'Team B' });
    expect(done.reassigned.map((j: Json) => j.crew_id)).toEqual([a.crew_id, a.crew_id]);
    expect((await crewsOf(auth)).map((c) => c.crew_id)).toEqual([a.crew_id]);
    // The last crew stays.
    expect((await post(auth, 'remove_crew', { crew_id: a.crew_id }).expect(400)).body.error).toMatch(/only active crew/);
    expect((await post(auth, 'update_crew', { crew_id: a.crew_id, active: false }).expect(400)).body.error).toMatch(/only active crew/);
  });

  it('refuses a name the business already uses (whatever the case), an empty change, and a crew removed', async () => {
    const { auth, b } = await twoCrews();
    expect((await post(auth, 'add_crew', { name: 'team b' }).expect(400)).body.error).toMatch(/already has a crew named "team b"/);
    expect((await post(auth, 'update_crew', { crew_id: b.crew_id }).expect(400)).body.error).toMatch(/at least one field/);
    await post(auth, 'remove_crew', { crew_id: b.crew_id }).expect(200);
    expect((await post(auth, 'update_crew', { crew_id: b.crew_id, name: 'Again' }).expect(404)).body.error).toMatch(/No crew with id/);
    // Its name is free again.
    await post(auth, 'add_crew', { name: 'Team B' }).expect(200);
  });

  it("treats another business's crew as unknown everywhere (404), and changes nothing of it", async () => {
    const mine = await twoCrews();
    const theirs = await twoCrews();
    const job = (await post(mine.auth, 'book_job', validBooking()).expect(200)).body;
    const foreign = theirs.b.crew_id;
    for (const [op, body] of [
      ['update_crew', { crew_id: foreign, name: 'Mine now' }],
      ['remove_crew', { crew_id: foreign }],
      ['assign_job', { booking_id: job.booking_id, crew_id: foreign }],
      ['book_job', validBooking({ start: '2026-11-25T09:00:00-05:00', crew_id: foreign })],
      ['add_time_off', { start: '2026-11-27', end: '2026-11-27', crew_id: foreign }],
    ] as const) {
      const res = await post(mine.auth, op, body).expect(404);
      expect([op, res.body.error]).toEqual([op, expect.stringMatching(/No crew with id/)]);
    }
    await get(mine.auth, 'open_times', { bedrooms: 2, bathrooms: 1, crew_id: foreign }).expect(404);
    await get(mine.auth, 'schedule', { crew_id: foreign }).expect(404);
    expect((await crewsOf(theirs.auth)).map((c) => c.name)).toContain('Team B');
  });
  it('judges reassign_to as assign_job judges its crew even when the removed crew has no jobs: unknown or foreign is a 404, inactive or itself a 400, and nothing is removed', async () => {
    const mine = await twoCrews();
    const theirs = await twoCrews();
    const c = (await post(mine.auth, 'add_crew', { name: 'Team C' }).expect(200)).body;
    await post(mine.auth, 'update_crew', { crew_id: c.crew_id, active: false }).expect(200);
    const job = (await post(mine.auth, 'book_job', validBooking({ crew_id: mine.a.crew_id })).expect(200)).body;
    for (const to of ['crew_doesnotexist', theirs.b.crew_id]) {
      const [viaAssign, viaRemove] = [
        await post(mine.auth, 'assign_job', { booking_id: job.booking_id, crew_id: to }).expect(404),
        await post(mine.auth, 'remove_crew', { crew_id: mine.b.crew_id, reassign_to: to }).expect(404),
      ];
      expect(viaRemove.body.error).toBe(viaAssign.body.error);
      expect(viaRemove.body.error).toBe(`No crew with id ${to} in this business; my_business lists the crews.`);
    }
    const inactive = await post(mine.auth, 'remove_crew', { crew_id: mine.b.crew_id, reassign_to: c.crew_id }).expect(400);
    expect(inactive.body.error).toBe((await post(mine.auth, 'assign_job', { booking_id: job.booking_id, crew_id: c.crew_id }).expect(400)).body.error);
    expect(inactive.body.error).toMatch(/^Team C is not active/);
    const itself = await post(mine.auth, 'remove_crew', { crew_id: mine.b.crew_id, reassign_to: mine.b.crew_id }).expect(400);
    expect(itself.body.error).toMatch(/^reassign_to must be another crew than the one removed/);
    expect((await crewsOf(mine.auth)).map((x) => x.name)).toEqual(expect.arrayContaining(['Team B', 'Team C']));
    expect((await crewsOf(theirs.auth)).map((x) => x.name)).toContain('Team B');
    // A crew of its own, active, still takes the (no) jobs.
    await post(mine.auth, 'remove_crew', { crew_id: mine.b.crew_id, reassign_to: mine.a.crew_id }).expect(200);
  });
});

describe('crews over MCP', () => {
  it('adds a crew and books two jobs at one start through the official SDK client; the third is refused', async () => {
    const { auth } = await newPro(h);
    const server = await listenOn(h.app);
    try {
      const client = await mcpClient(server.url, auth);
      const added = await client.callTool({ name: 'add_crew', arguments: { name: 'Second crew' } });
      expect(added.structuredContent).toMatchObject({ name: 'Second crew', active: true });
      const book = (name: string) => client.callTool({ name: 'book_job', arguments: validBooking({ customer_name: name }) });
      const [one, two] = [await book('One'), await book('Two')];
      expect(new Set([(one.structuredContent as Json).crew_id, (two.structuredContent as Json).crew_id]).size).toBe(2);
      h.clock.now = new Date(h.clock.now.getTime() + 120_000);
      const three = await book('Three');
      expect(three.isError).toBe(true);
      expect(JSON.stringify(three.content)).toMatch(/every crew is busy/);
      await client.close();
    } finally {
      await server.close();
    }
  });
});

describe("a crew's email", () => {
  it('is set, shown, cleared with null and refused when it is not an address, through update_crew', async () => {
    const { auth } = await newPro(h);
    const [first] = await crewsOf(auth);
    const set = (await post(auth, 'update_crew', { crew_id: first!.crew_id, email: ' team-a@example.com ' }).expect(200)).body;
    expect(set.email).toBe('team-a@example.com');
    expect((await crewsOf(auth))[0]!.email).toBe('team-a@example.com');
    const wrong = await post(auth, 'update_crew', { crew_id: first!.crew_id, email: 'not an address' }).expect(400);
    expect(wrong.body.error).toMatch(/email/);
    expect((await post(auth, 'update_crew', { crew_id: first!.crew_id, email: null }).expect(200)).body.email).toBeNull();
  });
});
