// The pro host through the official 2.x MCP client, in each of its negotiation modes, with each credential the host takes.
import { createBusiness } from '@frontdesk/use-cases';
import { oauthTokenFor, proHostOnPort } from '@frontdesk/dev-env/oauth';
import { PRO_DESK_OPERATIONS } from '@frontdesk/dev-env/pro-desk';
import { MODES, mcpClient2 } from '@frontdesk/dev-env/mcp-client';

let host: Awaited<ReturnType<typeof proHostOnPort>>;
const credentials: Record<string, Record<string, string>> = {};

beforeAll(async () => {
  host = await proHostOnPort();
  const made = await createBusiness(host.t.db, {
    name: 'Sunny Maids',
    timezone: 'America/New_York',
    service_zips: ['10001'],
    owner_email: 'owner@sunny.example',
  });
  credentials['the pro key'] = { Authorization: `Bearer ${made.apiKey}` };
  credentials['an OAuth token of the owner'] = { Authorization: `Bearer ${await oauthTokenFor(host, 'owner@sunny.example')}` };
});
afterAll(() => host.close());

type Json = Record<string, any>;
const CREDENTIALS = ['the pro key', 'an OAuth token of the owner'];

describe.each(MODES)('the 2.x client %s', (_mode, mode, expected) => {
  it.each(CREDENTIALS)('settles on its revision, lists the tools and calls a read and a write, with %s', async (credential) => {
    const client = await mcpClient2(host.url, credentials[credential]!, mode);
    expect([client.getProtocolEra(), client.getNegotiatedProtocolVersion()]).toEqual([expected.era, expected.version]);
    expect(client.getServerVersion()).toMatchObject({ name: 'front-desk-pro', version: '1.0.0' });
    expect(client.getInstructions()).toMatch(/never send them links/);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(PRO_DESK_OPERATIONS);
    const quote = (await client.callTool({ name: 'quote_job', arguments: { bedrooms: 2, bathrooms: 1 } })) as Json;
    expect([quote.isError, quote.structuredContent.total]).toEqual([undefined, 125]);
    const lead = (await client.callTool({
      name: 'log_lead',
      arguments: {
        source: 'marketplace_2',
        lead_ref: `2x-${credential}-${String(expected.era)}`,
        customer_first_name: 'Zelda',
        bedrooms: 2,
        bathrooms: 1,
        zip: '10001',
      },
    })) as Json;
    expect(lead.isError).toBeUndefined();
    expect(lead.structuredContent.lead_id).toMatch(/^lead_/);
    const refused = (await client.callTool({ name: 'quote_job', arguments: { bedrooms: 11, bathrooms: 1 } })) as Json;
    expect(refused.isError).toBe(true);
    await client.close();
  });
});
