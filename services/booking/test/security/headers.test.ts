import request from 'supertest';
import { createLogger } from '@frontdesk/http';
import { createBookingApp } from '../../src/app';
import { signInCodeSentTo } from '@frontdesk/db/testing';
import { newCalendarAddress } from '@frontdesk/use-cases';
import { bothHostsPerFile, newCleaner, asPublic, booking, TEST_KEY_SEALER } from '@frontdesk/dev-env/both-hosts';

// Browser and cache protections on both hosts: nosniff everywhere, no framing, a CSP with no
// script, no referrer, and no-store on every API answer (they carry names, phones, addresses).
const h = bothHostsPerFile();

describe('security headers', () => {
  it.each(['pro', 'book'] as const)('are on every answer of the %s host, pages, API and errors alike', async (host) => {
    const auth = host === 'pro' ? (await newCleaner(h)).auth : asPublic;
    const answers = [
      await h[host].get('/healthz'),
      await h[host].get('/api/v1/nothing-here').set(auth),
      await h[host].get(host === 'pro' ? '/key' : '/authorize?client_id=nobody'),
      await h[host].get(host === 'pro' ? '/api/v1/schedule' : '/api/v1/my_bookings').set(auth),
    ];
    for (const res of answers) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('same-origin');
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("default-src 'none'");
      expect(csp).not.toMatch(/script-src|unsafe-inline/);
      // http://…test is not https: no HSTS (a browser would pin a host that cannot serve TLS).
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
    expect(answers[3]!.headers['cache-control']).toBe('no-store');
    expect(answers[2]!.headers['cache-control']).toBe('no-store');
  });

  it('answers MCP calls with no-store too', async () => {
    const res = await h.book
      .post('/mcp')
      .set(asPublic)
      .set('Accept', 'application/json, text/event-stream')
      .send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'my_bookings', arguments: {} } });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
  });
});

describe('no-store on answers that carry a secret or personal data', () => {
  it('covers a new personal key, the calendar feed, the manage page and its calendar, redirects and the pages', async () => {
    const email = `nostore.${Date.now()}@example.com`;
    await h.pro.post('/key/api/code').send({ email }).expect(202);
    const key = await h.pro
      .post('/key/api/keys')
      .send({ email, code: await signInCodeSentTo(h.t.db, email) })
      .expect(201);
    expect(key.body.key).toMatch(/^fdp_/);
    const { pro } = await newCleaner(h);
    const feed = await h.pro.get(`/calendar/${await newCalendarAddress(h.t.db, pro.id, h.clock.now)}.ics`).expect(200);
    const booked = await h.book.post('/api/v1/book_cleaning').set(asPublic).send(booking(pro.id)).expect(200);
    const token = String(booked.body.manage_token);
    const answers = {
      'POST /key/api/keys': key,
      'the calendar feed': feed,
      'the booking answer with its manage token': booked,
      'the manage page': await h.book.get(`/manage/${token}`).expect(200),
      "the booking's .ics": await h.book.get(`/manage/${token}/booking.ics`).expect(200),
      'a redirect': await h.pro.post('/key/code').type('form').send({ email }).expect(303),
      'the dashboard': await h.pro.get('/dashboard').expect(200),
      'the find page': await h.book.get('/find').expect(200),
      'the token endpoint': await h.book.post('/token').type('form').send({ grant_type: 'refresh_token', client_id: 'front-desk', refresh_token: 'x' }),
    };
    for (const [what, res] of Object.entries(answers)) expect([what, res.headers['cache-control']]).toEqual([what, 'no-store']);
  });
});

describe('HSTS', () => {
  it('is sent when the public URL is https', async () => {
    const config = {
      publicUrl: 'https://book.example',
      proDeskUrl: 'https://pro.example',
      publicSharedKey: 'fdpub_test_public_key',
      mcpAllowedOrigins: [],
      keySealer: TEST_KEY_SEALER,
      checkAnswers: true,
    };
    const { app } = createBookingApp({ db: h.t.db, config, logger: createLogger('t', 'silent'), clock: () => h.clock.now });
    const res = await request(app).get('/healthz').expect(200);
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });
});
