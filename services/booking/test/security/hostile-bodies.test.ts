import { bothHostsPerFile, booking, newCleaner, asPublic } from '@frontdesk/dev-env/both-hosts';

// Bodies and paths built to break the reader rather than the rules: each is refused with a
// sentence and the right status, never a 500 or a library's own words.
const h = bothHostsPerFile();

const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
/** A JSON body to the book host under the shared key, sent with the Content-Encoding given. */
const encoded = (path: string, encoding: string, body: string) =>
  h.book.post(path).set(asPublic).set('Content-Type', 'application/json').set('Content-Encoding', encoding).send(body);
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

describe('requests that cannot be read', () => {
  const sentence = /^[A-Z].*[.]$/;

  it('answers a Content-Encoding that lies with a 400 sentence, on the API, the sign-up API and a form page', async () => {
    const cleaner = await newCleaner(h);
    const api = await encoded('/api/v1/book_cleaning', 'gzip', JSON.stringify(booking(cleaner.pro.id)));
    expect([api.status, api.body]).toEqual([400, { error: expect.stringMatching(/could not be decompressed as its Content-Encoding says/) }]);
    const signUp = await h.pro.post('/signup/api/code').set('Content-Type', 'application/json').set('Content-Encoding', 'gzip').send('{"email":"a@b.co"}');
    expect([signUp.status, signUp.body.error]).toEqual([400, expect.stringMatching(/could not be decompressed/)]);
    const form = await h.pro
      .post('/dashboard/code')
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .set('Content-Encoding', 'deflate')
      .send('email=a%40b.co');
    expect([form.status, form.headers['content-type']]).toEqual([400, expect.stringMatching(/^text\/html/)]);
    expect(form.text).toMatch(/could not be decompressed/);
    expect(form.text).not.toMatch(/incorrect header check/);
  });

  it('answers a lying body on /mcp with a JSON-RPC parse error in words', async () => {
    const res = await encoded('/mcp', 'br', mcpCall('find_cleaners', '{}'));
    expect([res.status, res.body]).toEqual([
      400,
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringMatching(/could not be decompressed as its Content-Encoding says/) } },
    ]);
  });

  it('answers an encoding it does not read with a 415, and a charset other than UTF-8 too', async () => {
    const enc = await encoded('/api/v1/cancel_booking', 'compress', '{}');
    expect([enc.status, enc.body.error]).toEqual([415, expect.stringMatching(/Content-Encoding "compress" is not one this service reads/)]);
    const charset = await h.book.post('/api/v1/cancel_booking').set(asPublic).set('Content-Type', 'application/json; charset=latin9').send('{}');
    expect([charset.status, charset.body.error]).toEqual([415, expect.stringMatching(sentence)]);
  });

  it.each([
    ['book', '/manage/%ZZ'],
    ['book', '/manage/%ZZ/cancel'],
    ['book', '/book/%ZZ'],
    ['pro', '/calendar/%ZZ'],
    ['pro', '/dashboard/%ZZ'],
    ['pro', '/dashboard/jobs/%E0%A4%A/move'],
  ] as const)('answers %s %s, an address that does not decode, with a 400 page in words', async (host, path) => {
    const res = await h[host].get(path);
    expect([res.status, res.headers['content-type']]).toEqual([400, expect.stringMatching(/^text\/html/)]);
    expect(res.text).toContain('The address is not valid percent-encoding');
    expect(res.text).not.toContain('Failed to decode');
  });

  it('answers an API address that does not decode in JSON', async () => {
    const res = await h.pro.get('/signup/api/%ZZ');
    expect(res.headers['content-type']).toMatch(/json/);
    expect(res.body.error).toMatch(sentence);
  });
});
