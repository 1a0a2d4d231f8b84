import { randomUUID } from 'node:crypto';
import { redactUrl, requestIdOf } from '../src';
import { as, startKit, type Kit } from '@frontdesk/dev-env/http-kit';

// The access log: pino-http with our request ids, redaction and one compact line per request.
let kit: Kit;
beforeAll(async () => {
  kit = await startKit();
});
afterAll(() => kit.close());

const completions = (reqId: string) => kit.logs.filter((l) => l.reqId === reqId && l.msg === 'request completed');
const settle = () => new Promise((r) => setTimeout(r, 50));

describe('request ids', () => {
  it('are the caller’s X-Request-Id when it is a plain token, else a UUID, echoed in the answer', async () => {
    const given = await fetch(`${kit.url}/healthz`, { headers: { 'X-Request-Id': 'trace.1-A_b' } });
    expect(given.headers.get('x-request-id')).toBe('trace.1-A_b');
    for (const bad of ['has space', 'x'.repeat(65), 'semi;colon']) {
      const res = await fetch(`${kit.url}/healthz`, { headers: { 'X-Request-Id': bad } });
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    }
  });

  it('name a 500 so support can find its log lines', async () => {
    const id = `boom-${randomUUID()}`;
    const res = await fetch(`${kit.url}/api/v1/fail_write`, {
      method: 'POST',
      headers: { ...as('w'), 'content-type': 'application/json', 'X-Request-Id': id },
      body: '{"how":"broken"}',
    });
    expect(res.status).toBe(500);
    expect(((await res.json()) as { error: string }).error).toContain(id);
    await settle();
    expect(kit.logs.find((l) => l.requestId === id && l.msg === 'unhandled error')).toMatchObject({
      level: 50,
      err: { message: 'internal detail 0xdeadbeef' },
    });
    expect(requestIdOf({ id: 42 })).toBe('42');
    expect(requestIdOf({})).toBe('');
  });
});

describe('the completion line', () => {
  it('is one line at info with method, redacted URL, address, status and time, and no header or body', async () => {
    const id = randomUUID();
    // A token in a query is refused (not a parameter), and logged without its value.
    await fetch(`${kit.url}/api/v1/echo_query?count=2&token=s3cret`, { headers: { ...as('secret-key-1'), 'X-Request-Id': id, cookie: 'sid=cookie-value' } });
    await settle();
    const lines = completions(id);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 30,
        reqId: id,
        req: { method: 'GET', url: '/api/v1/echo_query?count=2&token=[redacted]', remoteAddress: expect.any(String) },
        res: { statusCode: 400 },
        responseTime: expect.any(Number),
      }),
    ]);
    const all = JSON.stringify(kit.logs);
    for (const secret of ['s3cret', 'secret-key-1', 'cookie-value', 'headers']) expect([secret, all.includes(secret)]).toEqual([secret, false]);
  });

  it('is written for a 5xx too, with no error in it (the error has its own line)', async () => {
    const id = randomUUID();
    await fetch(`${kit.url}/api/v1/fail_write`, {
      method: 'POST',
      headers: { ...as('w'), 'content-type': 'application/json', 'X-Request-Id': id },
      body: '{"how":"broken"}',
    });
    await settle();
    expect(completions(id)).toEqual([expect.objectContaining({ res: { statusCode: 500 } })]);
    expect(completions(id)[0]).not.toHaveProperty('err');
  });

  it('is not written for /healthz and /readyz', async () => {
    const id = randomUUID();
    await fetch(`${kit.url}/healthz`, { headers: { 'X-Request-Id': id } });
    await fetch(`${kit.url}/readyz`, { headers: { 'X-Request-Id': id } });
    await settle();
    expect(completions(id)).toEqual([]);
  });

  it('is not even built below info', async () => {
    const quiet = await startKit({}, 'warn');
    try {
      await fetch(`${quiet.url}/api/v1/echo_query?count=1`, { headers: as('r') });
      await settle();
      expect(quiet.logs).toEqual([]);
    } finally {
      await quiet.close();
    }
  });
});

describe('redactUrl', () => {
  it('blanks secret query parameters and the secret paths of calendar feeds, manage, rental and unsubscribe pages', () => {
    expect(redactUrl('/api/v1/booking_status?manage_token=abc&x=1')).toBe('/api/v1/booking_status?manage_token=[redacted]&x=1');
    expect(redactUrl('/cb?code=c1&state=s&code_verifier=v&refresh_token=r&key=k')).toBe(
      '/cb?code=[redacted]&state=s&code_verifier=[redacted]&refresh_token=[redacted]&key=[redacted]',
    );
    expect(redactUrl('/calendar/feedsecret.ics')).toBe('/calendar/[redacted]');
    expect(redactUrl('/manage/tok?x=1')).toBe('/manage/[redacted]?x=1');
    expect(redactUrl('/rental/hosttok/stopped')).toBe('/rental/[redacted]/stopped');
    expect(redactUrl('/unsubscribe/subtok')).toBe('/unsubscribe/[redacted]');
  });

  it('reads names as the router does: in any case, decoded, and in any spelling of a query name', () => {
    expect(redactUrl('/MANAGE/tok/cancel')).toBe('/MANAGE/[redacted]/cancel');
    expect(redactUrl('/Calendar/feed.ics')).toBe('/Calendar/[redacted]');
    expect(redactUrl('/%6Danage/tok')).toBe('/%6Danage/[redacted]');
    expect(redactUrl('//manage/tok')).toBe('//manage/[redacted]');
    expect(redactUrl('/api/v1/booking_status?manage%5Ftoken=abc&MANAGE_TOKEN=def&manage_token[]=ghi')).toBe(
      '/api/v1/booking_status?manage%5Ftoken=[redacted]&MANAGE_TOKEN=[redacted]&manage_token[]=[redacted]',
    );
    expect(redactUrl('/api/v1/my_bookings?access_token=eyJ.a.b&x=%ZZ')).toBe('/api/v1/my_bookings?access_token=[redacted]&x=%ZZ');
    expect(redactUrl('https://client.example/cb?code=c&state=s#access_token=t')).toBe(
      'https://client.example/cb?code=[redacted]&state=s#access_token=[redacted]',
    );
    expect(redactUrl('/book/abc?zip=10001')).toBe('/book/abc?zip=10001');
  });
});
