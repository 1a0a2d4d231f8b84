// notify_on_my_way (src/operations/bookings.ts) over REST and MCP on a real database: one mail
// per job, queued in the outbox (test-e2e/routine-mail.test.ts reads it off a real SMTP server),
// a second call answers when and sends nothing, and the refusals. Also the owner_agenda setting.
// A file of its own because it moves its clock to the day of the job.
import { proDeskHarnessPerFile, newPro, validBooking, MONDAY_7AM } from '@frontdesk/dev-env/pro-desk';
import { listenOn, mcpClient } from '@frontdesk/dev-env/mcp-client';

const h = proDeskHarnessPerFile();
type Auth = Record<string, string>;

/** Tue, Nov 24 at 8:00 AM EST: the day of the jobs booked from Monday. */
const TUESDAY_8AM = new Date('2026-11-24T13:00:00Z');

beforeEach(() => {
  h.clock.now = MONDAY_7AM;
});

const post = (auth: Auth, op: string, body: object) => h.api.post(`/api/v1/${op}`).set(auth).send(body);
const mailsTo = async (address: string) => h.t.db.selectFrom('outbox').selectAll().where('to_address', '=', address).execute();

/** A job on Tuesday at `start` for a customer at `email`, booked on Monday; the clock then moves to Tuesday morning. */
async function jobOfToday(auth: Auth, over: Record<string, unknown> = {}): Promise<string> {
  const booked = await post(auth, 'book_job', validBooking(over)).expect(200);
  h.clock.now = TUESDAY_8AM;
  return booked.body.booking_id as string;
}

describe('notify_on_my_way', () => {
  it('queues one mail to the customer, and a second call answers when it went and queues nothing', async () => {
    const { auth, pro } = await newPro(h, { phone: '(212) 555-0111' });
    const id = await jobOfToday(auth, { customer_email: 'omw-ana@example.com' });
    const first = await post(auth, 'notify_on_my_way', { booking_id: id, eta_minutes: 20 }).expect(200);
    expect(first.body).toEqual({
      booking_id: id,
      queued: true,
      sent_at: '2026-11-24T08:00:00-05:00',
      sent_label: 'Tue, Nov 24, 8:00 AM EST',
      message: 'Emailed Ana Lopez that the crew is on the way (arriving in about 20 minutes); sent Tue, Nov 24, 8:00 AM EST.',
    });
    const mails = await mailsTo('omw-ana@example.com');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(`${pro.name} is on the way`);
    expect(mails[0]!.text_body).toContain('We expect to arrive in about 20 minutes.');

    h.clock.now = new Date(TUESDAY_8AM.getTime() + 5 * 60_000);
    const again = await post(auth, 'notify_on_my_way', { booking_id: id }).expect(200);
    expect(again.body).toMatchObject({ queued: false, sent_at: '2026-11-24T08:00:00-05:00' });
    expect(again.body.message).toMatch(/already emailed "on my way" Tue, Nov 24, 8:00 AM EST; .* nothing more was sent/);
    expect(await mailsTo('omw-ana@example.com')).toHaveLength(1);
  });

  it('sends one mail when two calls race', async () => {
    const { auth } = await newPro(h);
    const id = await jobOfToday(auth, { customer_email: 'omw-race@example.com' });
    const answers = await Promise.all([1, 2, 3].map(() => post(auth, 'notify_on_my_way', { booking_id: id }).expect(200)));
    expect(answers.filter((a) => a.body.queued)).toHaveLength(1);
    expect(await mailsTo('omw-race@example.com')).toHaveLength(1);
  });

  it('refuses a cancelled job, a job without an email, a platform lead, a job of another day; another business gets 404', async () => {
    const { auth } = await newPro(h);
    const other = await newPro(h);
    const cancelled = (await post(auth, 'book_job', validBooking({ customer_email: 'omw-cancel@example.com' })).expect(200)).body.booking_id;
    await post(auth, 'cancel_job', { booking_id: cancelled }).expect(200);
    const noEmail = (await post(auth, 'book_job', validBooking({ start: '2026-11-24T13:00:00-05:00' })).expect(200)).body.booking_id;
    const lead = (await post(auth, 'log_lead', { source: 'marketplace_1', bedrooms: 2, bathrooms: 1 }).expect(200)).body.lead_id;
    const platform = (
      await post(auth, 'book_job', validBooking({ start: '2026-11-24T15:30:00-05:00', lead_id: lead, customer_email: 'omw-platform@example.com' })).expect(200)
    ).body.booking_id;
    const tomorrow = (await post(auth, 'book_job', validBooking({ start: '2026-11-25T09:00:00-05:00', customer_email: 'omw-later@example.com' })).expect(200))
      .body.booking_id;
    h.clock.now = TUESDAY_8AM;

    const refused = async (id: string) => (await post(auth, 'notify_on_my_way', { booking_id: id }).expect(400)).body.error as string;
    expect(await refused(cancelled)).toMatch(/was cancelled; no "on my way" email is sent/);
    expect(await refused(noEmail)).toMatch(/has no customer email/);
    expect(await refused(platform)).toMatch(/came from a lead platform/);
    expect(await refused(tomorrow)).toMatch(/only on the day of the job/);
    const foreign = await post(other.auth, 'notify_on_my_way', { booking_id: cancelled }).expect(404);
    expect(foreign.body.error).toMatch(/No booking with id/);
    for (const address of ['omw-cancel@example.com', 'omw-platform@example.com', 'omw-later@example.com']) expect(await mailsTo(address)).toEqual([]);
    const marked = await h.t.db.selectFrom('bookings').select('on_my_way_sent_at').where('id', 'in', [cancelled, noEmail, platform, tomorrow]).execute();
    expect(marked.every((b) => b.on_my_way_sent_at === null)).toBe(true);
  });

  it('refuses an arrival time out of bounds, naming the field', async () => {
    const { auth } = await newPro(h);
    const id = await jobOfToday(auth, { customer_email: 'omw-eta@example.com' });
    for (const eta of [0, 241, 2.5, '20']) {
      const res = await post(auth, 'notify_on_my_way', { booking_id: id, eta_minutes: eta }).expect(400);
      expect(res.body.error).toMatch(/eta_minutes/);
    }
    expect(await mailsTo('omw-eta@example.com')).toEqual([]);
  });

  it('works the same over MCP, with the hints of a write that reaches the customer and is done once', async () => {
    const { auth } = await newPro(h);
    const cancelled = (await post(auth, 'book_job', validBooking({ start: '2026-11-24T13:00:00-05:00', customer_email: 'omw-mcp2@example.com' })).expect(200))
      .body.booking_id;
    await post(auth, 'cancel_job', { booking_id: cancelled }).expect(200);
    const id = await jobOfToday(auth, { customer_email: 'omw-mcp@example.com' });
    const server = await listenOn(h.app);
    const client = await mcpClient(server.url, auth);
    try {
      const tool = (await client.listTools()).tools.find((t) => t.name === 'notify_on_my_way')!;
      expect(tool.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true });
      type Result = { isError?: boolean; structuredContent: Record<string, unknown>; content: unknown };
      const call = async (args: Record<string, unknown>) => (await client.callTool({ name: 'notify_on_my_way', arguments: args })) as unknown as Result;
      expect((await call({ booking_id: id, eta_minutes: 15 })).structuredContent).toMatchObject({ queued: true });
      expect((await call({ booking_id: id })).structuredContent).toMatchObject({ queued: false });
      const refused = await call({ booking_id: cancelled });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toMatch(/was cancelled/);
      const unknown = await call({ booking_id: 'bk_nope' });
      expect(unknown.isError).toBe(true);
    } finally {
      await client.close();
      await server.close();
    }
    expect(await mailsTo('omw-mcp@example.com')).toHaveLength(1);
    expect(await mailsTo('omw-mcp2@example.com')).toEqual([]);
  });
});

describe('the owner_agenda setting', () => {
  it('is 07:00 for a new business, changes and turns off through update_business, and refuses a time that is not HH:MM', async () => {
    const { auth } = await newPro(h);
    const shown = async () => (await h.api.get('/api/v1/my_business').set(auth).expect(200)).body.owner_agenda;
    expect(await shown()).toBe('07:00');
    expect((await post(auth, 'update_business', { owner_agenda: '06:30' }).expect(200)).body.owner_agenda).toBe('06:30');
    expect(await shown()).toBe('06:30');
    for (const wrong of ['7:00', '24:00', 700]) {
      const res = await post(auth, 'update_business', { owner_agenda: wrong }).expect(400);
      expect(res.body.error).toMatch(/owner_agenda/);
    }
    expect((await post(auth, 'update_business', { owner_agenda: null }).expect(200)).body.owner_agenda).toBeNull();
    expect(await shown()).toBeNull();
  });
});
