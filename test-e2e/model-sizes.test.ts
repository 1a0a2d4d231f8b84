import { MODEL_BUDGETS, modelFacingTools, utf8Bytes } from '@frontdesk/http';
import { asPublic, bothHostsPerFile, newCleaner } from '../services/booking/test/harness';

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
    const writes = ['log_lead', 'book_job', 'update_lead', 'flag_bad_lead', 'cancel_job', 'reschedule_job', 'report_no_show'];
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
