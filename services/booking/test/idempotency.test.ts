import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { freePort, purgeExpired } from '@frontdesk/db';
import { closeServer, listen } from '@frontdesk/http';
import { asPublic, booking, bothHostsPerFile, newCleaner, proBooking } from '@frontdesk/dev-env/both-hosts';

// A lost answer must never cost a second booking or the only manage_token.
const h = bothHostsPerFile();

/** A book_cleaning with the shared key, sent over a socket bound to `from`, a loopback address of its own. */
function postFrom(from: string, port: number, key: string, body: string): Promise<{ status: number; replayed?: string; body: Record<string, any> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        localAddress: from,
        method: 'POST',
        path: '/api/v1/book_cleaning',
        headers: { ...asPublic, 'Content-Type': 'application/json', 'Idempotency-Key': key, 'Content-Length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode!, replayed: res.headers['idempotent-replayed'] as string | undefined, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const bookingsOf = async (proId: string) => h.t.db.selectFrom('bookings').select(['id', 'manage_token_hash']).where('pro_id', '=', proId).execute();
const rpc = (auth: Record<string, string>, name: string, args: unknown, host = h.book) =>
  host
    .post('/mcp')
    .set(auth)
    .set('Accept', 'application/json, text/event-stream')
    .send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });

describe('Idempotency-Key on book_cleaning', () => {
  it('books once, and a retry gets the same booking with a fresh manage_token that retires the lost one', async () => {
    const { pro } = await newCleaner(h);
    const key = randomUUID();
    const first = await h.book.post('/api/v1/book_cleaning').set(asPublic).set('Idempotency-Key', key).send(booking(pro.id)).expect(200);
    const again = await h.book.post('/api/v1/book_cleaning').set(asPublic).set('Idempotency-Key', key).send(booking(pro.id)).expect(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(again.body.booking_id).toBe(first.body.booking_id);
    expect(again.body.message).toBe(first.body.message);
    expect(again.body.manage_token).not.toBe(first.body.manage_token);
    expect(await bookingsOf(pro.id)).toHaveLength(1);

    // The new token works, the lost one no longer does.
    await h.book.get('/api/v1/booking_status').query({ manage_token: again.body.manage_token }).set(asPublic).expect(200);
    await h.book.get('/api/v1/booking_status').query({ manage_token: first.body.manage_token }).set(asPublic).expect(404);

    // Nothing secret is kept: neither token appears in the stored answer.
    const kept = await h.t.db.selectFrom('idempotency_keys').select('response').where('key', '=', key).executeTakeFirstOrThrow();
    const stored = JSON.stringify(kept.response);
    expect(stored).toContain(first.body.booking_id);
    expect(stored).not.toContain(first.body.manage_token);
    expect(stored).not.toContain(again.body.manage_token);
  });

  it('refuses the same key with other input, and books nothing for it', async () => {
    const { pro } = await newCleaner(h);
    const key = randomUUID();
    await h.book.post('/api/v1/book_cleaning').set(asPublic).set('Idempotency-Key', key).send(booking(pro.id)).expect(200);
    const other = await h.book
      .post('/api/v1/book_cleaning')
      .set(asPublic)
      .set('Idempotency-Key', key)
      .send(booking(pro.id, { start: '2026-11-24T13:00:00-05:00' }))
      .expect(400);
    expect(other.body.error).toMatch(/already used in the last 24 hours for a different request \(book_cleaning with other input\)/);
    expect(await bookingsOf(pro.id)).toHaveLength(1);
  });

  it('tells apart callers of the shared public key by their X-User-* details', async () => {
    const { pro } = await newCleaner(h);
    const key = randomUUID();
    const body = booking(pro.id, { customer_name: undefined, customer_email: undefined });
    await h.book
      .post('/api/v1/book_cleaning')
      .set(asPublic)
      .set({ 'X-User-Name': 'Ana', 'X-User-Email': 'ana@example.com' })
      .set('Idempotency-Key', key)
      .send(body)
      .expect(200);
    const stranger = await h.book
      .post('/api/v1/book_cleaning')
      .set(asPublic)
      .set({ 'X-User-Name': 'Mallory', 'X-User-Email': 'mallory@example.com' })
      .set('Idempotency-Key', key)
      .send(body)
      .expect(400);
    expect(stranger.body.error).toMatch(/different request/);
  });

  it('keeps the shared key namespace per client address: a stranger elsewhere with the key and body never gets the answer or its token', async () => {
    const server = await listen(h.bookApp, await freePort(), '127.0.0.1');
    try {
      const port = (server.address() as AddressInfo).port;
      const { pro } = await newCleaner(h);
      const key = randomUUID();
      const body = JSON.stringify(booking(pro.id));
      const first = await postFrom('127.0.0.1', port, key, body);
      expect(first.status).toBe(200);
      // Same address again: a retry, the same booking with a fresh token.
      const retry = await postFrom('127.0.0.1', port, key, body);
      expect([retry.status, retry.replayed, retry.body.booking_id]).toEqual([200, 'true', first.body.booking_id]);
      // Another address with the same key, body and (absent) X-User-* details: its own key space,
      // so the work runs anew and the slot is taken; no manage_token of the stranger's booking.
      const stranger = await postFrom('127.0.0.2', port, key, body);
      expect(stranger.replayed).toBeUndefined();
      expect(stranger.body.manage_token).toBeUndefined();
      expect(stranger.status).toBe(400);
      expect(await bookingsOf(pro.id)).toHaveLength(1);
      // The retry's token still works: the stranger retired nothing.
      await h.book.get('/api/v1/booking_status').query({ manage_token: retry.body.manage_token }).set(asPublic).expect(200);
      // Neither address is stored in clear.
      const rows = await h.t.db.selectFrom('idempotency_keys').select('credential').where('key', '=', key).execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]!.credential).toMatch(/^public:[0-9a-f]{32}$/);
    } finally {
      await closeServer(server);
    }
  });

  it('does the work once when the same key arrives ten times at once', async () => {
    const { pro } = await newCleaner(h);
    const key = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => h.book.post('/api/v1/book_cleaning').set(asPublic).set('Idempotency-Key', key).send(booking(pro.id))),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((a) => a.body.booking_id)).size).toBe(1);
    expect(answers.filter((a) => a.headers['idempotent-replayed'] !== 'true')).toHaveLength(1);
    expect(await bookingsOf(pro.id)).toHaveLength(1);
    // Only the last token handed out works: each replay retired the one before.
    const live = await Promise.all(answers.map((a) => h.book.get('/api/v1/booking_status').query({ manage_token: a.body.manage_token }).set(asPublic)));
    expect(live.filter((r) => r.status === 200)).toHaveLength(1);
  });

  it('frees the key after a refusal, so a corrected retry can run', async () => {
    const { pro } = await newCleaner(h);
    const key = randomUUID();
    const early = booking(pro.id, { start: '2026-11-24T06:00:00-05:00' });
    await h.book.post('/api/v1/book_cleaning').set(asPublic).set('Idempotency-Key', key).send(early).expect(400);
    // The key is freed off the answer's path: within a moment, not before the answer.
    const held = () => h.t.db.selectFrom('idempotency_keys').select('key').where('key', '=', key).execute();
    for (let i = 0; i < 40 && (await held()).length > 0; i += 1) await new Promise((r) => setTimeout(r, 25));
    expect(await held()).toEqual([]);
    await h.book.post('/api/v1/book_cleaning').set(asPublic).set('Idempotency-Key', key).send(booking(pro.id)).expect(200);
  });

  it('refuses a malformed key', async () => {
    const { pro } = await newCleaner(h);
    for (const bad of ['', 'has space', 'x'.repeat(256)]) {
      const res = await h.book.post('/api/v1/book_cleaning').set(asPublic).set('Idempotency-Key', bad).send(booking(pro.id)).expect(400);
      expect(res.body.error).toMatch(/Idempotency-Key header must be 1 to 255 printable characters/);
    }
    expect(await bookingsOf(pro.id)).toHaveLength(0);
  });

  it('is purged once its 24 hours have passed', async () => {
    const { pro } = await newCleaner(h);
    const key = randomUUID();
    await h.book.post('/api/v1/book_cleaning').set(asPublic).set('Idempotency-Key', key).send(booking(pro.id)).expect(200);
    const purged = await purgeExpired(h.t.db, new Date(h.clock.now.getTime() + 25 * 3600_000));
    expect(purged.idempotency_keys).toBeGreaterThanOrEqual(1);
    expect(await h.t.db.selectFrom('idempotency_keys').select('key').where('key', '=', key).execute()).toEqual([]);
  });
});

describe('idempotency_key over MCP', () => {
  it('is declared on every write tool that is not idempotent, and replays book_cleaning without a second booking', async () => {
    const list = await h.book
      .post('/mcp')
      .set(asPublic)
      .set('Accept', 'application/json, text/event-stream')
      .send({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
      .expect(200);
    for (const tool of list.body.result.tools) {
      const declared = 'idempotency_key' in tool.inputSchema.properties;
      expect([tool.name, declared]).toEqual([tool.name, !tool.annotations.readOnlyHint && !tool.annotations.idempotentHint]);
    }
    const { pro } = await newCleaner(h);
    const args = { ...booking(pro.id), idempotency_key: randomUUID() };
    const first = await rpc(asPublic, 'book_cleaning', args).expect(200);
    const again = await rpc(asPublic, 'book_cleaning', args).expect(200);
    expect(again.body.result.structuredContent.booking_id).toBe(first.body.result.structuredContent.booking_id);
    expect(again.body.result.structuredContent.manage_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await bookingsOf(pro.id)).toHaveLength(1);
    // A read-only tool declares no key, and ignores one sent anyway (reads are safe to repeat).
    const read = await rpc(asPublic, 'find_cleaners', { zip: '10001', bedrooms: 1, bathrooms: 1, idempotency_key: 'k' }).expect(200);
    expect(read.body.result.isError).toBeUndefined();
    expect(read.body.result.structuredContent.cleaners).toEqual(expect.any(Array));
    // The same over REST, where the header on a read is not even checked for form.
    await h.book.get('/api/v1/find_cleaners').query({ zip: '10001', bedrooms: 1, bathrooms: 1 }).set(asPublic).set('Idempotency-Key', 'not a key').expect(200);
  });

  it('keeps one key space per credential: a pro and the REST header share it, another pro does not', async () => {
    const a = await newCleaner(h);
    const b = await newCleaner(h);
    const key = randomUUID();
    const body = proBooking();
    const rest = await h.pro.post('/api/v1/book_job').set(a.auth).set('Idempotency-Key', key).send(body).expect(200);
    const mcp = await rpc(a.auth, 'book_job', { ...body, idempotency_key: key }, h.pro).expect(200);
    expect(mcp.body.result.structuredContent.booking_id).toBe(rest.body.booking_id);
    const other = await h.pro.post('/api/v1/book_job').set(b.auth).set('Idempotency-Key', key).send(body).expect(200);
    expect(other.body.booking_id).not.toBe(rest.body.booking_id);
    expect(await bookingsOf(a.pro.id)).toHaveLength(1);
    expect(await bookingsOf(b.pro.id)).toHaveLength(1);
  });
});
