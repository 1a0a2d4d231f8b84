import { WRITE_RETRY_TEXT, startsOf, type WeeklyHours } from '@frontdesk/domain';
import { MODEL_BUDGETS, modelFacingTools, utf8Bytes } from '@frontdesk/http';
import { asPublic, bothHostsPerFile, newCleaner } from '@frontdesk/dev-env/both-hosts';

// Every conversation pays for the tool list on every turn, so each host's model-facing part
// (name, title, description, input schema of every tool) has a byte budget. Shortening must
// never drop a rule the interface documents give the assistant: each is looked for below,
// by phrase, where the model needs it (the tool or field it governs), not only in the
// server instructions, which some clients never show the model.
const h = bothHostsPerFile();

type Tool = { name: string; title: string; description: string; inputSchema: { properties: Record<string, { description?: string }> } };

async function toolsOf(host: 'pro' | 'book'): Promise<Tool[]> {
  const auth = host === 'pro' ? (await newCleaner(h)).auth : asPublic;
  const res = await h[host].post('/mcp').set(auth).send({ jsonrpc: '2.0', id: 1, method: 'tools/list' }).expect(200);
  return res.body.result.tools as Tool[];
}

const byName = (tools: Tool[]) => Object.fromEntries(tools.map((t) => [t.name, t]));
const fieldText = (tool: Tool, field: string) => tool.inputSchema.properties[field]?.description ?? '';

describe('the model-facing part of tools/list', () => {
  it.each([
    ['pro', MODEL_BUDGETS.proTools],
    ['book', MODEL_BUDGETS.bookTools],
  ] as const)('fits the %s host budget of %i bytes', async (host, budget) => {
    const bytes = utf8Bytes(modelFacingTools(await toolsOf(host)));
    process.stdout.write(`${host} tools/list, model-facing: ${bytes} bytes (budget ${budget})\n`);
    expect(bytes).toBeLessThanOrEqual(budget);
  });

  it.each(['pro', 'book'] as const)('on the %s host tells every tool that takes sqft or frequency never to guess or switch', async (host) => {
    const tools = await toolsOf(host);
    const withSqft = tools.filter((t) => 'sqft' in t.inputSchema.properties);
    const withFrequency = tools.filter((t) => 'frequency' in t.inputSchema.properties);
    expect(withSqft.length).toBeGreaterThanOrEqual(3);
    for (const t of withSqft) expect([t.name, fieldText(t, 'sqft')]).toEqual([t.name, expect.stringMatching(/only if the customer stated it; never guess/i)]);
    for (const t of withFrequency)
      expect([t.name, fieldText(t, 'frequency')]).toEqual([t.name, expect.stringMatching(/never switch to recurring just to lower the price/)]);
  });

  it('keeps every rule the pro document gives the assistant', async () => {
    const tools = await toolsOf('pro');
    const t = byName(tools);
    // Every write is confirmed with the pro first (schedule only marks notifications read).
    const writes = ['log_lead', 'book_job', 'update_lead', 'flag_bad_lead', 'cancel_job', 'reschedule_job', 'report_no_show', 'notify_on_my_way'];
    const settings = ['update_business', 'add_time_off', 'remove_time_off', 'add_crew', 'update_crew', 'remove_crew', 'assign_job'];
    for (const name of [...writes, ...settings]) expect([name, t[name]!.description]).toEqual([name, expect.stringContaining('Confirm first.')]);
    expect(t.log_lead!.description).toMatch(
      /Platform leads \(marketplace_1\.\.5\): name and contact are not stored; reply inside the platform, never with links to book elsewhere/,
    );
    expect(t.cancel_job!.description).toMatch(/no fee.*NOT messaged: tell the pro to inform them/);
    expect(t.reschedule_job!.description).toMatch(/NOT messaged: tell the pro to inform them/);
    expect(t.book_job!.description).toMatch(/own schedule \(never other cleaners\), no fee/);
    expect(t.follow_ups_due!.description).toMatch(/1 day after the quote, then 2 days later.*call update_lead with contacted=true/);
    expect(t.flag_bad_lead!.description).toMatch(/the pro submits it to the platform, the service never does/);
    expect(t.report_no_show!.description).toMatch(/waives the 5 USD booking-service fee/);
    expect(t.updates!.description).toMatch(/every next_check_in_minutes and messages the pro only when events is not empty/);
    expect(t.quote_job!.description).toMatch(/sqft only if the customer stated it/);
    expect(fieldText(t.book_job!, 'customer_phone')).toMatch(/Phone or email is required/);
    expect(fieldText(t.book_job!, 'bathrooms')).toMatch(/multiple of 0\.5/);
  });

  it('keeps every rule the booking document gives the assistant', async () => {
    const t = byName(await toolsOf('book'));
    expect(t.find_cleaners!.description).toMatch(/firm total \(everything included, no added fees\)/);
    expect(t.find_cleaners!.description).toMatch(/dated best-effort checks: never present them as a guarantee or endorsement/);
    const book = t.book_cleaning!.description;
    expect(book).toMatch(/Confirm once \(cleaner, time, address, price\) unless the user already said to book/);
    expect(book).toMatch(/Fill customer details from what you know .*; ask only for what is missing, in one message, and tell the user what was shared/);
    expect(book).toMatch(/Notes and access details are optional: never hold a booking back for them/);
    expect(book).toMatch(/Keep the manage_token: the only way to check or cancel/);
    expect(t.cancel_booking!.description).toMatch(/Confirm with the user first\. Free until 24 hours before the start; closer, the cleaner may charge/);
    expect(t.reschedule_booking!.description).toMatch(/Confirm with the user first/);
    expect(t.my_bookings!.description).toMatch(/with the shared public key none: use booking_status/);
  });

  it.each(['pro', 'book'] as const)(
    'on the %s host ends every write operation of the registry with how to retry it safely, in the same words, as its tool says it, and no read',
    async (host) => {
      const registry = host === 'pro' ? h.proOps : h.bookOps;
      const tools = byName(await toolsOf(host));
      const writes = registry.filter((op) => !op.readOnly);
      expect(writes.length).toBeGreaterThanOrEqual(host === 'pro' ? 20 : 3);
      for (const op of registry) {
        const says = op.description.endsWith(` ${WRITE_RETRY_TEXT}`);
        expect([op.name, says]).toEqual([op.name, !op.readOnly]);
        expect([op.name, tools[op.name]!.description]).toEqual([op.name, op.description]);
        // Said once, at the end: an operation's own words never repeat it.
        expect([op.name, op.description.split(WRITE_RETRY_TEXT).length - 1]).toEqual([op.name, op.readOnly ? 0 : 1]);
      }
    },
  );

  it.each(['pro', 'book'] as const)('leaves the %s server instructions every rule, and how to retry a write safely', async (host) => {
    const auth = host === 'pro' ? (await newCleaner(h)).auth : asPublic;
    const res = await h[host]
      .post('/mcp')
      .set(auth)
      .send({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      })
      .expect(200);
    const text = res.body.result.instructions as string;
    expect(text).toMatch(/optional idempotency_key/);
    expect(text).toMatch(host === 'pro' ? /never send them links/ : /no added fees/);
  });
});

// The shape: a business open 9 hours a day (08:00-17:00, here six days a week, the
// default's Saturday lengthened) on the default 30-minute step, asked about its shortest job
// (no bedroom, one bath: 45 minutes), which has the most starts, for the default 7 days from
// today. Monday 07:00 with 12 hours' notice: Tuesday to Saturday, 17 starts a day (08:00 to 16:00).
describe('a 7-day open-times answer', () => {
  const nineHours = Object.fromEntries(['1', '2', '3', '4', '5', '6'].map((d) => [d, [{ start: '08:00', end: '17:00' }]])) as WeeklyHours;
  const job = { bedrooms: 0, bathrooms: 1, days: 7 };

  it('fits 3 KB on both hosts, every start a full ISO string that book_* takes unchanged', async () => {
    const c = await newCleaner(h, { weekly_hours: nineHours });
    const pro = (await h.pro.get('/api/v1/open_times').set(c.auth).query(job).expect(200)).body;
    const book = (
      await h.book
        .get('/api/v1/available_times')
        .set(asPublic)
        .query({ cleaner_id: c.pro.id, ...job })
        .expect(200)
    ).body;
    expect(pro.open_times.map((d: { label: string }) => d.label)).toEqual(['Tue, Nov 24', 'Wed, Nov 25', 'Thu, Nov 26', 'Fri, Nov 27', 'Sat, Nov 28']);
    expect(pro.count).toBe(5 * 17);
    for (const [host, body] of [
      ['pro', pro],
      ['book', book],
    ] as const) {
      const bytes = utf8Bytes(JSON.stringify(body));
      process.stdout.write(`${host} 7-day open times: ${bytes} bytes, ${body.count} starts (budget ${MODEL_BUDGETS.openTimesWeek})\n`);
      expect(bytes).toBeLessThanOrEqual(MODEL_BUDGETS.openTimesWeek);
      for (const start of startsOf(body.open_times)) expect(start).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
    }
    const last = startsOf(pro.open_times).at(-1)!;
    const booked = await h.pro
      .post('/api/v1/book_job')
      .set(c.auth)
      .send({ ...job, days: undefined, start: last, customer_name: 'Dana Park', customer_phone: '2125550199', address: '1 Main St', zip: '10001' })
      .expect(200);
    expect(booked.body.start).toBe(last);
    const first = startsOf(book.open_times)[0]!;
    const viaBook = await h.book
      .post('/api/v1/book_cleaning')
      .set(asPublic)
      .send({
        cleaner_id: c.pro.id,
        bedrooms: 0,
        bathrooms: 1,
        start: first,
        customer_name: 'Lee Chen',
        customer_email: 'lee@example.com',
        address: '3 Elm St',
        zip: '10001',
      })
      .expect(200);
    expect(viaBook.body.start).toBe(first);
  });
});
