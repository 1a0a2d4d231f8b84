import { asPublic, bothHosts, newCleaner, type Hosts } from '../services/booking/test/harness';

// Anthropic's API refuses a whole tool list if one input schema has anything but type,
// properties, required and additionalProperties at its top level (anyOf, oneOf, allOf, …):
// one such tool and no Claude client can load the host's tools at all.
let h: Hosts;
beforeAll(async () => {
  h = await bothHosts();
});
afterAll(() => h.close());

const TOP_LEVEL = ['additionalProperties', 'properties', 'required', 'type'];

describe('tools/list on both hosts', () => {
  it.each(['pro', 'book'] as const)(
    'gives every %s tool an input schema with only type, properties, required and additionalProperties at the top',
    async (host) => {
      const auth = host === 'pro' ? (await newCleaner(h)).auth : asPublic;
      const res = await h[host]
        .post('/mcp')
        .set(auth)
        .set('Accept', 'application/json, text/event-stream')
        .send({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
        .expect(200);
      const tools = res.body.result.tools as { name: string; inputSchema: Record<string, unknown> }[];
      expect(tools.length).toBe(host === 'pro' ? 13 : 6);
      for (const tool of tools) {
        expect([tool.name, Object.keys(tool.inputSchema).filter((k) => !TOP_LEVEL.includes(k))]).toEqual([tool.name, []]);
        expect([tool.name, tool.inputSchema.type]).toEqual([tool.name, 'object']);
        expect(typeof tool.inputSchema.properties).toBe('object');
      }
    },
  );
});
