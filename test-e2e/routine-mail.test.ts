import type { Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { simpleParser } from 'mailparser';
import { freePort } from '@frontdesk/db';
import { createBusiness } from '@frontdesk/use-cases';
import { createTestDatabase, type TestDatabase } from '@frontdesk/db/testing';
import { closeServer, listen } from '@frontdesk/http';
import { createProDeskApp } from '@frontdesk/pro-desk';
import { agendaWorker } from '@frontdesk/workers';
import { DEFAULT_WEEKLY_HOURS } from '@frontdesk/domain';
import { TEST_KEY_SEALER, TEST_RATE_LIMITS } from '@frontdesk/dev-env/both-hosts';
import { outboxDrained, startMailSink, type Received } from './mail-sink';

jest.setTimeout(60_000);

// The routine messages read off a real SMTP server the outbox worker delivers to: "on my way"
// once per job over REST and MCP, and the morning agenda, made by the agenda worker on the
// injected clock: once per business and local day, per crew, and on the days clocks change.
let t: TestDatabase;
let server: Server | undefined;
let sink: Awaited<ReturnType<typeof startMailSink>> | undefined;
let inbox: Received[] = [];
let pro = '';
const clock = { now: new Date('2026-11-23T12:00:00Z') };

beforeAll(async () => {
  t = await createTestDatabase();
  sink = await startMailSink(t.db, 'routine-mail');
  inbox = sink.inbox;
  const port = await freePort();
  pro = `http://127.0.0.1:${port}`;
  const config = {
    proDeskUrl: pro,
    bookingUrl: 'http://127.0.0.1:9',
    publicUrl: pro,
    publicSharedKey: 'fdpub_routine_public_key',
    mcpAllowedOrigins: [],
    keySealer: TEST_KEY_SEALER,
    checkAnswers: true,
    rateLimits: TEST_RATE_LIMITS,
  };
  server = await listen(createProDeskApp({ db: t.db, config, logger: sink.logger, clock: () => clock.now }).app, port, '127.0.0.1');
});
afterAll(async () => {
  if (server) await closeServer(server);
  await sink?.stop();
  await t?.drop();
});

type Json = Record<string, any>;
const post = async (path: string, body: object, auth: Record<string, string>) =>
  fetch(`${pro}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify(body) });
const call = async (auth: Record<string, string>, op: string, body: object, status = 200): Promise<Json> => {
  const res = await post(`/api/v1/${op}`, body, auth);
  const json = (await res.json()) as Json;
  expect([res.status, json]).toEqual([status, expect.anything()]);
  return json;
};

async function mailsTo(to: string) {
  await outboxDrained(t.db);
  return Promise.all(inbox.filter((m) => m.to === to).map((m) => simpleParser(m.raw)));
}

/** A business in New York open around the clock, with its owner's sign-in address. */
async function business(over: { weekly_hours?: typeof DEFAULT_WEEKLY_HOURS } = {}) {
  const tag = randomBytes(3).toString('hex');
  const hours = Object.fromEntries(['1', '2', '3', '4', '5', '6', '7'].map((d) => [d, [{ start: '00:00', end: '24:00' }]])) as typeof DEFAULT_WEEKLY_HOURS;
  const { pro: p, apiKey } = await createBusiness(t.db, {
    name: `Sparkle ${tag}`,
    timezone: 'America/New_York',
    service_zips: ['10001'],
    weekly_hours: over.weekly_hours ?? hours,
    owner_email: `owner-${tag}@example.com`,
    phone: '(212) 555-0111',
  });
  return { id: p.id, name: p.name, owner: `owner-${tag}@example.com`, auth: { authorization: `Bearer ${apiKey}` } };
}

const booking = (start: string, over: Record<string, unknown> = {}) => ({
  bedrooms: 2,
  bathrooms: 1,
  start,
  customer_name: 'Ana Lopez',
  customer_phone: '(212) 555-0100',
  address: '12 Grove St, Apt 3',
  zip: '10001',
  ...over,
});

describe('"on my way"', () => {
  it("mails the customer once, in the business's name with the ETA and no link, whether asked over REST or MCP", async () => {
    const biz = await business();
    clock.now = new Date('2026-11-23T12:00:00Z');
    const job = await call(biz.auth, 'book_job', booking('2026-11-24T09:00:00-05:00', { customer_email: 'ana.omw@example.com' }));
    clock.now = new Date('2026-11-24T13:12:00Z'); // 8:12 AM EST on the day
    expect(await call(biz.auth, 'notify_on_my_way', { booking_id: job.booking_id, eta_minutes: 45 })).toMatchObject({ queued: true });
    const mcp = (await (
      await post(
        '/mcp',
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'notify_on_my_way', arguments: { booking_id: job.booking_id } } },
        { ...biz.auth, accept: 'application/json, text/event-stream' },
      )
    ).json()) as Json;
    expect(mcp.result.structuredContent).toMatchObject({ queued: false, sent_label: 'Tue, Nov 24, 8:12 AM EST' });
    const mails = await mailsTo('ana.omw@example.com');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`${biz.name} is on the way`);
    expect(mails[0]!.text).toContain(`Our crew from ${biz.name} is on the way to 12 Grove St, Apt 3. We expect to arrive in about 45 minutes.`);
    expect(mails[0]!.text).not.toMatch(/https?:\/\//);
  });
});

describe('the morning agenda', () => {
  const run = (now: Date) => agendaWorker(t.db).run(now);

  it('mails the owner every job per crew and a crew with an email only its own, once per local day whichever replica looks', async () => {
    const biz = await business();
    await t.db.updateTable('pros').set({ owner_agenda: '06:45' }).where('id', '=', biz.id).execute(); // nobody else's agenda due at once
    clock.now = new Date('2026-11-23T12:00:00Z');
    const crewB = await call(biz.auth, 'add_crew', { name: 'Crew B' });
    await call(biz.auth, 'update_crew', { crew_id: crewB.crew_id, email: 'crew-b@example.com' });
    await call(biz.auth, 'book_job', booking('2026-11-24T09:00:00-05:00', { customer_name: 'Ana', address: '1 Elm St', notes: 'Fragile vase' }));
    await t.db.updateTable('bookings').set({ access_details: 'Lockbox 4321' }).where('pro_id', '=', biz.id).execute();
    await call(biz.auth, 'book_job', booking('2026-11-24T09:00:00-05:00', { customer_name: 'Bo', address: '2 Oak St', crew_id: crewB.crew_id }));
    await call(biz.auth, 'book_job', booking('2026-11-25T09:00:00-05:00', { customer_name: 'Wednesday Wu' }));

    await run(new Date('2026-11-24T11:44:00Z')); // 6:44 AM EST: not yet
    expect(await mailsTo(biz.owner)).toHaveLength(0);
    // Two processes look at 6:45 at once, and again later that day: one agenda.
    await Promise.all([run(new Date('2026-11-24T11:45:00Z')), run(new Date('2026-11-24T11:45:00Z'))]);
    await run(new Date('2026-11-24T12:30:00Z'));
    const owner = await mailsTo(biz.owner);
    expect(owner.map((m) => m.subject)).toEqual([`${biz.name}: 2 jobs today, Tue, Nov 24`]);
    const text = owner[0]!.text!;
    // The first crew carries the business's name.
    expect(text).toContain(`${biz.name} (1 job)\n- 9:00 AM EST: Ana\n  1 Elm St, 10001\n  Access: Lockbox 4321\n  Phone: (212) 555-0100`);
    expect(text).toMatch(/has a time in your settings; empty it there to stop it/);
    expect(text).toMatch(/Crew B \(1 job\)\n- 9:00 AM EST: Bo\n {2}2 Oak St, 10001\n {2}Phone: \(212\) 555-0100/);
    expect(text).not.toContain('Wednesday Wu');
    const crew = await mailsTo('crew-b@example.com');
    expect(crew.map((m) => m.subject)).toEqual([`Crew B: 1 job today for ${biz.name}, Tue, Nov 24`]);
    expect(crew[0]!.text).toContain('Bo');
    expect(crew[0]!.text).not.toContain('Ana');
    const days = await t.db.selectFrom('owner_agendas').selectAll().where('pro_id', '=', biz.id).execute();
    expect(days).toMatchObject([{ local_date: '2026-11-24', jobs: 2, mails: 2 }]);
  });

  it('comes at 7:00 local on the fall-back day and lists a job at the first 1:30 as 1:30 AM EDT', async () => {
    const biz = await business();
    await t.db.updateTable('pros').set({ owner_agenda: '07:00' }).where('id', '=', biz.id).execute();
    clock.now = new Date('2026-10-29T12:00:00Z');
    await call(biz.auth, 'book_job', booking('2026-11-01T01:30:00-04:00', { customer_name: 'Early Ed' }));
    await call(biz.auth, 'book_job', booking('2026-11-01T10:00:00-05:00', { customer_name: 'Late Lu' }));
    await run(new Date('2026-11-01T11:59:00Z')); // 6:59 AM EST
    expect(await mailsTo(biz.owner)).toHaveLength(0);
    await run(new Date('2026-11-01T12:00:00Z')); // 7:00 AM EST
    const [mail, ...more] = await mailsTo(biz.owner);
    expect(more).toHaveLength(0);
    expect(mail!.subject).toBe(`${biz.name}: 2 jobs today, Sun, Nov 1`);
    expect(mail!.text).toMatch(/- 1:30 AM EDT: Early Ed[\s\S]*- 10:00 AM EST: Late Lu/);
  });

  it('comes at 7:00 local on the spring-forward day (11:00 UTC), not an hour late', async () => {
    const biz = await business();
    await t.db.updateTable('pros').set({ owner_agenda: '07:00' }).where('id', '=', biz.id).execute();
    clock.now = new Date('2027-03-11T12:00:00Z');
    await call(biz.auth, 'book_job', booking('2027-03-14T09:00:00-04:00', { customer_name: 'Spring Sam' }));
    await run(new Date('2027-03-14T10:59:00Z'));
    expect(await mailsTo(biz.owner)).toHaveLength(0);
    await run(new Date('2027-03-14T11:00:00Z'));
    const mails = await mailsTo(biz.owner);
    expect(mails.map((m) => m.subject)).toEqual([`${biz.name}: 1 job today, Sun, Mar 14`]);
    expect(mails[0]!.text).toContain('- 9:00 AM EDT: Spring Sam');
  });

  it('sends nothing when the business turned it off, and nothing on a day without jobs', async () => {
    const off = await business();
    const idle = await business();
    await t.db.updateTable('pros').set({ owner_agenda: '05:15' }).where('id', '=', idle.id).execute();
    clock.now = new Date('2026-12-01T12:00:00Z');
    await call(off.auth, 'update_business', { owner_agenda: null });
    await call(off.auth, 'book_job', booking('2026-12-02T09:00:00-05:00'));
    await run(new Date('2026-12-02T13:00:00Z'));
    expect(await mailsTo(off.owner)).toHaveLength(0);
    expect(await mailsTo(idle.owner)).toHaveLength(0);
    expect(await t.db.selectFrom('owner_agendas').select('mails').where('pro_id', '=', idle.id).execute()).toEqual([{ mails: 0 }]);
  });
});
