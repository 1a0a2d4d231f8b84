import { request as httpRequest } from 'node:http';
import { proDeskHarness, newPro, validBooking, type Harness } from '@frontdesk/dev-env/pro-desk';
import { listenOn } from '@frontdesk/dev-env/mcp-client';

// Every transport judges input the same way: no coercion of JSON, no hostile value stored,
// and a query typed by a person (10:00, not 10%3A00) read as meant.
let h: Harness;
beforeAll(async () => {
  h = await proDeskHarness();
});
afterAll(() => h.close());

const rpcCall = (auth: Record<string, string>, name: string, args: unknown) =>
  h.api
    .post('/mcp')
    .set(auth)
    .set('Accept', 'application/json, text/event-stream')
    .send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });

const rowsOf = async (proId: string) => ({
  bookings: (await h.t.db.selectFrom('bookings').select('id').where('pro_id', '=', proId).execute()).length,
  leads: (await h.t.db.selectFrom('leads').select('id').where('pro_id', '=', proId).execute()).length,
});

describe('JSON bodies are taken as they are, never coerced', () => {
  it.each([
    ['bedrooms: null', { bedrooms: null }, /bedrooms must be a whole number/],
    ['bedrooms: true', { bedrooms: true }, /bedrooms must be a whole number/],
    ['bedrooms: "2"', { bedrooms: '2' }, /bedrooms must be a whole number/],
    ['bathrooms: false', { bathrooms: false }, /bathrooms must be a number/],
    ['address: true', { address: true }, /address must be text/],
    ['notes: null', { notes: null }, /notes must be text/],
    ['pets: "true"', { pets: 'true' }, /pets must be true or false/],
    ['add_ons: "oven"', { add_ons: 'oven' }, /add_ons must be a list/],
  ])('refuses %s on REST and MCP alike, booking nothing', async (_what, change, message) => {
    const { pro, auth } = await newPro(h);
    const body = validBooking(change);
    const rest = await h.api.post('/api/v1/book_job').set(auth).send(body).expect(400);
    expect(rest.body.error).toMatch(message);
    const mcp = await rpcCall(auth, 'book_job', body).expect(200);
    expect(mcp.body.result).toEqual({ isError: true, content: [{ type: 'text', text: rest.body.error }] });
    expect(await rowsOf(pro.id)).toEqual({ bookings: 0, leads: 0 });
  });

  it('refuses a lead whose notes are null instead of erasing them', async () => {
    const { auth } = await newPro(h);
    const lead = await h.api.post('/api/v1/log_lead').set(auth).send({ source: 'website', bedrooms: 2, bathrooms: 1 }).expect(200);
    await h.api.post('/api/v1/update_lead').set(auth).send({ lead_id: lead.body.lead_id, notes: 'Gate code 1234' }).expect(200);
    const res = await h.api.post('/api/v1/update_lead').set(auth).send({ lead_id: lead.body.lead_id, notes: null }).expect(400);
    expect(res.body.error).toBe('notes must be text.');
    const stored = await h.t.db.selectFrom('leads').select('notes').where('id', '=', lead.body.lead_id).executeTakeFirstOrThrow();
    expect(stored.notes).toBe('Gate code 1234');
  });
});

describe('hostile values', () => {
  it.each([
    ['Infinity', 'bedrooms=Infinity&bathrooms=1', /bedrooms must be a whole number/],
    ['NaN', 'bedrooms=2&bathrooms=NaN', /bathrooms must be a number/],
    ['1e999', 'bedrooms=1e999&bathrooms=1', /bedrooms must be a whole number/],
    ['a 400-digit number', `bedrooms=${'9'.repeat(400)}&bathrooms=1`, /bedrooms must be a whole number/],
    ['a NUL byte', 'bedrooms=2&bathrooms=1&add_ons=ov%00en', /add_ons\[0\] contains a character that cannot be stored/],
    ['a lone surrogate', 'bedrooms=2&bathrooms=1&add_ons=%ED%A0%80', /./],
    ['add_ons of __proto__', 'bedrooms=2&bathrooms=1&add_ons=__proto__', /does not offer the add-on "__proto__"/],
    ['add_ons of constructor', 'bedrooms=2&bathrooms=1&add_ons=constructor,toString', /does not offer the add-ons "constructor", "tostring"/],
    ['a nested key', 'bedrooms=2&bathrooms=1&add_ons[a][b]=1', /add_ons\[a\]\[b\] is not a parameter of this operation/],
    ['a repeated key', 'bedrooms=2&bedrooms=3&bathrooms=1', /bedrooms is given more than once/],
    ['a __proto__ key', 'bedrooms=2&bathrooms=1&__proto__=1', /__proto__ is not a parameter/],
  ])('refuses %s in a query with a 400 sentence', async (_what, query, message) => {
    const { auth } = await newPro(h);
    const res = await h.api.get(`/api/v1/quote_job?${query}`).set(auth).expect(400);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.body.error).toMatch(message);
    expect(res.body.error).toMatch(/\.$/);
  });

  it('refuses days=Infinity and days=1e999 on open_times', async () => {
    const { auth } = await newPro(h);
    for (const days of ['Infinity', '1e999', '-0x10']) {
      const res = await h.api.get(`/api/v1/open_times?bedrooms=2&bathrooms=1&days=${days}`).set(auth).expect(400);
      expect(res.body.error).toBe('days must be a whole number.');
    }
  });

  it.each([
    ['1e999 in a body', '{"source":"website","bedrooms":1e999}', /bedrooms must be a finite number/],
    ['a NUL byte in a body', '{"source":"website","lead_ref":"abc\\u0000def"}', /lead_ref contains a character that cannot be stored/],
    ['a lone surrogate in a body', '{"source":"website","lead_ref":"\\ud800x"}', /lead_ref contains a character that cannot be stored/],
    ['a __proto__ field', '{"source":"website","__proto__":{"x":1}}', /__proto__ is not a field of this operation/],
    ['add-ons named after Object methods', '{"source":"website","bedrooms":1,"bathrooms":1,"add_ons":["constructor"]}', null],
  ])('refuses %s, writing nothing', async (_what, raw, message) => {
    const { pro, auth } = await newPro(h);
    const res = await h.api.post('/api/v1/log_lead').set(auth).set('Content-Type', 'application/json').send(raw);
    if (message === null) {
      // A lead is still stored (log_lead keeps what cannot be priced) but never with a null price.
      expect(res.status).toBe(200);
      expect(res.body.notices.join(' ')).toMatch(/constructor/);
      expect(JSON.stringify(res.body)).not.toMatch(/NaN|null-minute|NaN-minute/);
      return;
    }
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
    expect(await rowsOf(pro.id)).toEqual({ bookings: 0, leads: 0 });
  });

  it('answers a null body on /mcp with a JSON-RPC Invalid Request, not a 500', async () => {
    const { auth } = await newPro(h);
    for (const body of ['null', '42', 'true']) {
      const res = await h.api.post('/mcp').set(auth).set('Content-Type', 'application/json').send(body).expect(400);
      expect(res.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    }
  });

  it('answers oversized headers with a 431 and an {error} sentence', async () => {
    const server = await listenOn(h.app);
    try {
      const { status, body, type } = await new Promise<{ status: number; body: string; type: string }>((resolve, reject) => {
        const req = httpRequest(`${server.url}/healthz`, { headers: { 'X-Big': 'x'.repeat(20_000) } }, (res) => {
          let text = '';
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode!, body: text, type: String(res.headers['content-type']) }));
        });
        req.on('error', reject);
        req.end();
      });
      expect(status).toBe(431);
      expect(type).toMatch(/application\/json/);
      expect(JSON.parse(body).error).toMatch(/headers are too large/);
    } finally {
      await server.close();
    }
  });
});

describe('times in a query', () => {
  it('accepts start_after=10:00 unencoded, as docs/walkthrough.md types it', async () => {
    const { auth } = await newPro(h);
    const res = await h.api.get('/api/v1/open_times?bedrooms=2&bathrooms=1&days=1&date=2026-11-24&start_after=10:00&finish_by=15:00').set(auth).expect(200);
    expect(res.body.open_times.length).toBeGreaterThan(0);
    expect(res.body.open_times[0].starts[0]).toBe('2026-11-24T10:00:00-05:00');
  });
});
