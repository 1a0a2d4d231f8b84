import Ajv from 'ajv';
import { expectAnnotated, listenOn, masked, mcpClient } from '@frontdesk/dev-env/mcp-client';
import { ALL_OPERATIONS } from '@frontdesk/dev-env/pro-desk';
import { bothHosts, bookReplicaApp, newCleaner, asPublic, booking, MONDAY_7AM, type Hosts } from '@frontdesk/dev-env/both-hosts';

let h: Hosts;
let server: Awaited<ReturnType<typeof listenOn>>;
beforeAll(async () => {
  h = await bothHosts();
  // The harness's app shares this database's budgets: both run under the tests' limits.
  const app = bookReplicaApp(h);
  server = await listenOn(app);
});
afterAll(async () => {
  await server.close();
  await h.close();
});

type Json = Record<string, any>;
const user = { 'X-User-Name': 'Dana Park', 'X-User-Email': 'dana@example.com', 'X-Client-Name': 'ChatGPT' };

describe('MCP on the book host, through the official SDK client', () => {
  it('lists every operation of the registry as a tool and gives the same results as REST, X-User headers honoured', async () => {
    h.clock.now = MONDAY_7AM;
    const a = await newCleaner(h, { name: 'Twin A', service_zips: ['30001'] });
    const b = await newCleaner(h, { name: 'Twin B', service_zips: ['30002'] });
    const client = await mcpClient(server.url, { ...asPublic, ...user });
    expect(client.getServerVersion()).toMatchObject({ name: 'front-desk-booking', version: '1.0.0' });
    expect(client.getInstructions()).toMatch(/never as a guarantee or endorsement/);
    const { tools } = await client.listTools();
    // The registry is the one list: every operation is a tool, in the registry's order.
    expect(tools.map((t) => t.name)).toEqual(ALL_OPERATIONS.book.map((op) => op.name));
    const ajv = new Ajv({ strict: false });
    for (const tool of tools) expect(() => ajv.compile(tool.inputSchema)).not.toThrow();
    expect(tools.find((t) => t.name === 'cancel_booking')!.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
    expect(tools.find((t) => t.name === 'find_cleaners')!.annotations).toMatchObject({ readOnlyHint: true });

    const mcp = async (name: string, args: Json) => {
      const res = (await client.callTool({ name, arguments: args })) as Json;
      return res.isError ? { error: res.content[0].text } : { ok: res.structuredContent as Json };
    };
    const rest = async (method: 'GET' | 'POST', name: string, input: Json) => {
      const req = method === 'GET' ? h.book.get(`/api/v1/${name}`).query(input) : h.book.post(`/api/v1/${name}`).send(input);
      const res = await req.set(asPublic).set(user);
      return res.status === 200 ? { ok: res.body as Json } : { error: res.body.error };
    };
    const both = async (method: 'GET' | 'POST', name: string, x: Json, y: Json) => {
      const [m, r] = [await mcp(name, x), await rest(method, name, y)];
      const strip = (v: Json) =>
        masked(
          JSON.parse(
            JSON.stringify(v)
              .replace(/"manage_token":"[^"]+"/g, '"manage_token":"<token>"')
              .replace(/\/manage\/[A-Za-z0-9_-]{43}/g, '/manage/<token>')
              .replace(/3000[12]/g, '<zip>'),
          ),
        );
      expect(strip(m)).toEqual(strip(r));
      return { m: m.ok as Json, r: r.ok as Json };
    };
    await both(
      'GET',
      'find_cleaners',
      { zip: '30001', bedrooms: 2, bathrooms: 1, add_ons: ['oven'] },
      { zip: '30002', bedrooms: 2, bathrooms: 1, add_ons: 'oven' },
    );
    await both(
      'GET',
      'available_times',
      { cleaner_id: a.pro.id, bedrooms: 2, bathrooms: 1, days: 2 },
      { cleaner_id: b.pro.id, bedrooms: 2, bathrooms: 1, days: 2 },
    );
    const booked = await both(
      'POST',
      'book_cleaning',
      booking(a.pro.id, { zip: '30001', customer_name: undefined, customer_email: undefined }),
      booking(b.pro.id, { zip: '30002', customer_name: undefined, customer_email: undefined }),
    );
    expect(booked.m.customer).toEqual({ name: 'Dana Park', phone: null, email: 'dana@example.com' });
    await both('GET', 'booking_status', { manage_token: booked.m.manage_token }, { manage_token: booked.r.manage_token });
    await both('GET', 'my_bookings', {}, {});
    await both('POST', 'cancel_booking', { manage_token: booked.m.manage_token }, { manage_token: booked.r.manage_token });
    await both('POST', 'cancel_booking', { manage_token: 'x' }, { manage_token: 'x' });
    const sched = await h.pro.get('/api/v1/schedule').set(a.auth).expect(200);
    expect(sched.body.notifications[0].message).toMatch(/^New booking by ChatGPT through the booking service: Dana Park/);
    await client.close();
  });

  it('annotates every tool with a title and all four hints, as its definition declares them', async () => {
    const client = await mcpClient(server.url, { ...asPublic, ...user });
    const { tools } = await client.listTools();
    expectAnnotated(tools, ALL_OPERATIONS.book);
    // The judgments behind them: a booking, a move and a cancellation mail the customer and the
    // business owner, beyond the caller's own records; reads are reads. A list of every tool on
    // purpose (docs/adding-an-operation.md): a new operation states its judgment here.
    const open = Object.fromEntries(tools.map((t) => [t.name, [t.annotations!.readOnlyHint, t.annotations!.openWorldHint]]));
    expect(open).toEqual({
      find_cleaners: [true, false],
      available_times: [true, false],
      hold_time: [false, false],
      book_cleaning: [false, true],
      release_hold: [false, false],
      my_bookings: [true, false],
      cancel_booking: [false, true],
      reschedule_booking: [false, true],
      booking_status: [true, false],
      // It reads the host's calendars from their platforms and mails the host.
      request_turnovers: [false, true],
    });
    await client.close();
  });

  it('answers 401 with the protected-resource metadata in WWW-Authenticate, and checks X-User headers', async () => {
    const res = await h.book.post('/mcp').send({ jsonrpc: '2.0', id: 1, method: 'tools/list' }).expect(401);
    expect(res.headers['www-authenticate']).toBe(
      'Bearer realm="booking", resource_metadata="http://book.test/.well-known/oauth-protected-resource/mcp", scope="read write"',
    );
    expect(res.body.error.message).toMatch(/Missing credentials/);
    const bad = await h.book.post('/mcp').set(asPublic).set('X-User-Email', 'nope').send({ jsonrpc: '2.0', id: 1, method: 'tools/list' }).expect(400);
    expect(bad.body.error.message).toMatch(/X-User-Email header "nope" is not an email address/);
  });
});
