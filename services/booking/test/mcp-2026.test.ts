// The book host through the official 2.x MCP client, in each of its negotiation modes, with each credential the host takes.
import { BOOKING_OPERATIONS } from '@frontdesk/dev-env/pro-desk';
import { createBusiness, issuePersonalKey } from '@frontdesk/use-cases';
import { MODES, mcpClient2 } from '@frontdesk/dev-env/mcp-client';
import { Client as Client2, StreamableHTTPClientTransport as Transport2 } from '@modelcontextprotocol/client';
import { MemoryProvider, bookHostOnPort, oauthTokenFor, signInAndDecide, type BookHost } from '@frontdesk/dev-env/oauth';
import { startsOf } from '@frontdesk/domain';

let host: BookHost;
let cleanerId = '';
const credentials: Record<string, Record<string, string>> = {};
beforeAll(async () => {
  host = await bookHostOnPort();
  const { pro } = await createBusiness(host.t.db, { name: 'Sunny Maids', timezone: 'America/New_York', service_zips: ['10001'] });
  cleanerId = pro.id;
  credentials['the public key with X-User headers'] = {
    Authorization: 'Bearer fdpub_test_public_key',
    'X-User-Name': 'Dana Park',
    'X-User-Email': 'dana@example.com',
  };
  credentials['a personal key'] = { Authorization: `Bearer ${(await issuePersonalKey(host.t.db, 'kim@example.com')).key}` };
  credentials['an OAuth token'] = { Authorization: `Bearer ${await oauthTokenFor(host, 'lee@example.com')}` };
});
afterAll(() => host.close());

type Json = Record<string, any>;
const CREDENTIALS = ['the public key with X-User headers', 'a personal key', 'an OAuth token'];
/** Whose booking each credential makes: the X-User headers', the key's owner's, the signed-in person's. */
const EMAIL: Record<string, string> = {
  'the public key with X-User headers': 'dana@example.com',
  'a personal key': 'kim@example.com',
  'an OAuth token': 'lee@example.com',
};
/** Each booking takes the next open start, so no two tests want the same one. */
let next = 0;

describe.each(MODES)('the 2.x client %s', (_mode, mode, expected) => {
  it.each(CREDENTIALS)('settles on its revision, lists the tools, finds times and books one, with %s', async (credential) => {
    const client = await mcpClient2(host.url, credentials[credential]!, mode);
    expect([client.getProtocolEra(), client.getNegotiatedProtocolVersion()]).toEqual([expected.era, expected.version]);
    expect(client.getServerVersion()).toMatchObject({ name: 'front-desk-booking', version: '1.0.0' });
    expect(client.getInstructions()).toMatch(/never as a guarantee or endorsement/);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(BOOKING_OPERATIONS);
    const times = (await client.callTool({ name: 'available_times', arguments: { cleaner_id: cleanerId, bedrooms: 1, bathrooms: 1, days: 14 } })) as Json;
    expect(times.isError).toBeUndefined();
    const start = startsOf(times.structuredContent.open_times)[(next += 3)]!;
    const booked = (await client.callTool({
      name: 'book_cleaning',
      arguments: { cleaner_id: cleanerId, start, bedrooms: 1, bathrooms: 1, customer_name: 'Lee Chen', address: '3 Elm St', zip: '10001' },
    })) as Json;
    expect([booked.isError, booked.structuredContent?.status, booked.structuredContent?.customer.email]).toEqual([undefined, 'booked', EMAIL[credential]]);
    await client.close();
  });
});

describe('the 2.x client pinned to 2026-07-28, with nothing but the URL', () => {
  it('meets the 401, discovers the authorization server, registers, signs the person in with PKCE, and reads their bookings', async () => {
    const mcpUrl = new URL(`${host.url}/mcp`);
    const provider = new MemoryProvider();
    const pinned = () => new Client2({ name: 'assistant', version: '2.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await expect(pinned().connect(new Transport2(mcpUrl, { authProvider: provider }))).rejects.toThrow();
    expect(provider.client?.client_id).toMatch(/^fdc_/);
    expect(Object.fromEntries(provider.authorizationUrl!.searchParams)).toMatchObject({ code_challenge_method: 'S256', resource: mcpUrl.href });
    const back = await signInAndDecide(host, provider.authorizationUrl!.href, 'ora@example.com');
    await new Transport2(mcpUrl, { authProvider: provider }).finishAuth(back.searchParams);
    const client = pinned();
    await client.connect(new Transport2(mcpUrl, { authProvider: provider }));
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const mine = (await client.callTool({ name: 'my_bookings', arguments: {} })) as Json;
    expect(mine.structuredContent).toEqual({ count: 0, bookings: [] });
    await client.close();
  });
});
