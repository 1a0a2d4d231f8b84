import { bothHostsPerFile, booking, newCleaner, asPublic } from '../harness';

// Bodies and paths built to break the reader rather than the rules: each is refused with a
// sentence and the right status, never a 500 or a library's own words.
const h = bothHostsPerFile();

const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
const mcpCall = (name: string, args: string) => `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${name}","arguments":${args}}}`;

describe('deep JSON', () => {
  it('is a 400 with a sentence in book_cleaning over REST and MCP, not a stack overflow', async () => {
    const cleaner = await newCleaner(h);
    const body = JSON.stringify(booking(cleaner.pro.id, { add_ons: '__deep__' })).replace('"__deep__"', deep(15_000));
    const rest = await h.book.post('/api/v1/book_cleaning').set(asPublic).set('Content-Type', 'application/json').send(body);
    expect([rest.status, rest.body]).toEqual([400, { error: expect.stringMatching(/nested too deeply.*32 levels/) }]);
    const mcp = await h.book.post('/mcp').set(asPublic).set('Content-Type', 'application/json').send(mcpCall('book_cleaning', body));
    expect(mcp.status).toBe(200);
    expect(mcp.body.result).toEqual({ isError: true, content: [{ type: 'text', text: expect.stringMatching(/nested too deeply/) }] });
    expect(await h.t.db.selectFrom('bookings').select('id').where('pro_id', '=', cleaner.pro.id).execute()).toEqual([]);
  });

  it('is a 400 at the unauthenticated /signup/api/code', async () => {
    const res = await h.pro
      .post('/signup/api/code')
      .set('Content-Type', 'application/json')
      .send(`{"email":${deep(7000)}}`);
    expect([res.status, res.body]).toEqual([400, { error: expect.stringMatching(/nested too deeply/) }]);
  });

  it('still takes an input nested as deep as its schema goes', async () => {
    const cleaner = await newCleaner(h);
    const res = await h.pro
      .post('/api/v1/update_business')
      .set(cleaner.auth)
      .send({ working_hours: { monday: ['08:00-12:00'] }, add_ons: [{ name: 'oven', label: 'Oven', price: 30, minutes: 30 }] });
    expect(res.status).toBe(200);
  });
});
