import { createBusiness } from '@frontdesk/use-cases';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { MemoryProvider, bookHostOnPort, signInAndDecide, type BookHost } from '@frontdesk/dev-env/oauth';

let host: BookHost;
beforeAll(async () => {
  host = await bookHostOnPort();
});
afterAll(() => host.close());

describe('the official MCP SDK client with OAuth', () => {
  it('connects from a 401 alone (discovery, registration, PKCE) and books a cleaning', async () => {
    const { pro } = await createBusiness(host.t.db, { name: 'Sunny Maids', timezone: 'America/New_York', service_zips: ['10001'] });
    const provider = new MemoryProvider();
    const mcpUrl = new URL(`${host.url}/mcp`);
    const first = new Client({ name: 'assistant', version: '1.0.0' });
    await expect(first.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }))).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.client?.client_id).toMatch(/^fdc_/);
    const auth = provider.authorizationUrl!;
    expect(Object.fromEntries(auth.searchParams)).toMatchObject({ response_type: 'code', code_challenge_method: 'S256', resource: mcpUrl.href });

    // The person signs in and consents in a browser; the assistant gets the code back.
    const back = await signInAndDecide(host, auth.href, 'lee@example.com');
    const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
    await transport.finishAuth(back.searchParams.get('code')!);
    expect(provider.saved?.access_token).toBeDefined();

    const client = new Client({ name: 'assistant', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
    const times = (await client.callTool({ name: 'available_times', arguments: { cleaner_id: pro.id, bedrooms: 1, bathrooms: 1, days: 14 } })) as unknown as {
      structuredContent: { open_times: { starts: string[] }[] };
    };
    const start = times.structuredContent.open_times[0]!.starts[0]!;
    const booked = (await client.callTool({
      name: 'book_cleaning',
      arguments: { cleaner_id: pro.id, start, bedrooms: 1, bathrooms: 1, customer_name: 'Lee Chen', address: '3 Elm St', zip: '10001' },
    })) as unknown as { isError?: boolean; structuredContent: { status: string; customer: { email: string }; booking_id: string } };
    expect(booked.isError).toBeFalsy();
    expect(booked.structuredContent).toMatchObject({ status: 'booked', customer: { email: 'lee@example.com' } });
    const mine = (await client.callTool({ name: 'my_bookings', arguments: {} })) as unknown as { structuredContent: { bookings: { booking_id: string }[] } };
    expect(mine.structuredContent.bookings.map((b) => b.booking_id)).toEqual([booked.structuredContent.booking_id]);
    await client.close();
  });
});
