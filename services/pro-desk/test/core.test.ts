import { PRO_DESK_OPERATIONS, proDeskHarnessPerFile, newPro, validBooking } from '@frontdesk/dev-env/pro-desk';

const h = proDeskHarnessPerFile();

describe('health and description', () => {
  it('answers /healthz, /readyz and /openapi.json version 1.0.0 listing the operations', async () => {
    await h.api.get('/healthz').expect(200, { status: 'ok' });
    await h.api.get('/readyz').expect(200, { status: 'ready' });
    const doc = (await h.api.get('/openapi.json').expect(200)).body;
    expect(doc.info.version).toBe('1.0.0');
    expect(Object.keys(doc.paths).sort()).toEqual(PRO_DESK_OPERATIONS.map((n) => `/api/v1/${n}`));
    expect(doc.paths['/api/v1/quote_job'].get.parameters.map((p: { name: string }) => p.name)).toContain('bedrooms');
  });
});

describe('authentication', () => {
  it('answers 401 with a challenge without a key or with a wrong one', async () => {
    const none = await h.api.get('/api/v1/my_business').expect(401);
    expect(none.body.error).toMatch(/Missing credentials: send the business key, or an access token/);
    expect(none.headers['www-authenticate']).toBe(
      // The REST API's own metadata (resource: the origin), not /mcp's: RFC 9728 §3.3.
      'Bearer realm="pro-desk", resource_metadata="http://pro.test/.well-known/oauth-protected-resource", scope="read write"',
    );
    const wrong = await h.api.get('/api/v1/my_business').set('Authorization', 'Bearer fdk_nope').expect(401);
    expect(wrong.body.error).toMatch(/not valid/);
    expect(wrong.headers['www-authenticate']).toMatch(/error="invalid_token"/);
    await h.api.get('/api/v1/my_business').set('Authorization', 'Basic abc').expect(401);
  });

  it('checks the key before anything else, even on an unknown operation or a bad body', async () => {
    await h.api.get('/api/v1/nothing_here').expect(401);
    await h.api.post('/api/v1/book_job').set('Content-Type', 'application/json').send('{bad').expect(401);
  });

  it('keeps each pro to its own data', async () => {
    const a = await newPro(h);
    const b = await newPro(h);
    const booked = await h.api.post('/api/v1/book_job').set(a.auth).send(validBooking()).expect(200);
    const bSchedule = await h.api.get('/api/v1/schedule').set(b.auth).expect(200);
    expect(bSchedule.body.jobs).toEqual([]);
    const cancel = await h.api.post('/api/v1/cancel_job').set(b.auth).send({ booking_id: booked.body.booking_id }).expect(404);
    expect(cancel.body.error).toMatch(/No booking with id/);
    const aSchedule = await h.api.get('/api/v1/schedule').set(a.auth).expect(200);
    expect(aSchedule.body.jobs.map((j: { booking_id: string }) => j.booking_id)).toEqual([booked.body.booking_id]);
    const me = await h.api.get('/api/v1/my_business').set(b.auth).expect(200);
    expect(me.body.pro_id).toBe(b.pro.id);
  });
});

describe('errors', () => {
  it('are JSON for unknown paths and methods, never HTML', async () => {
    const { auth } = await newPro(h);
    const unknown = await h.api.get('/api/v1/nothing_here').set(auth).expect(404);
    expect(unknown.body.error).toMatch(/no operation/i);
    const outside = await h.api.get('/nowhere').expect(404);
    expect(outside.headers['content-type']).toMatch(/application\/json/);
    const wrongMethod = await h.api.get('/api/v1/book_job').set(auth).expect(405);
    expect(wrongMethod.body.error).toMatch(/POST/);
  });

  it('refuses a wrong content type, malformed JSON and an oversized body, writing nothing', async () => {
    const { auth, pro } = await newPro(h);
    const type = await h.api.post('/api/v1/book_job').set(auth).set('Content-Type', 'text/plain').send('hello').expect(415);
    expect(type.body.error).toMatch(/application\/json/);
    const bad = await h.api.post('/api/v1/book_job').set(auth).set('Content-Type', 'application/json').send('{"bedrooms": 2,').expect(400);
    expect(bad.body.error).toBe('The request body is not valid JSON.');
    const big = await h.api
      .post('/api/v1/book_job')
      .set(auth)
      .send(validBooking({ notes: 'x'.repeat(70_000) }))
      .expect(413);
    expect(big.body.error).toMatch(/too large/);
    const rows = await h.t.db.selectFrom('bookings').select('id').where('pro_id', '=', pro.id).execute();
    expect(rows).toEqual([]);
  });

  it('validates the X-Client-Name header like a field', async () => {
    const { auth } = await newPro(h);
    const { body } = await h.api.get('/api/v1/my_business').set(auth).set('X-Client-Name', 'x'.repeat(101)).expect(400);
    expect(body.error).toMatch(/x-client-name must be at most 100 characters long/i);
  });
});
