// A page's own writes (here the dashboard's new key, which calls its use case directly rather
// than through an operation) end with the request's deadline, as every operation's do: when the
// page was answered 503, the write must not land later, or the business would lose its key to
// one it was never shown.
import pg from 'pg';
import { signInCodeSentTo } from '@frontdesk/db/testing';
import { newPro, perFile, proDeskHarness } from './harness';

const h = perFile(() => proDeskHarness(undefined, { requestDeadlineMs: 1000 }));

it('a new key asked for while the business is locked past the deadline is answered 503 and never made', async () => {
  const email = 'deadline@dash.example';
  const { pro, auth } = await newPro(h, { owner_email: email });
  await h.api.post('/dashboard/code').type('form').send({ email }).expect(303);
  const verified = await h.api
    .post('/dashboard/verify')
    .type('form')
    .send({ email, code: await signInCodeSentTo(h.t.db, email) })
    .expect(303);
  const cookie = String((verified.headers['set-cookie'] as unknown as string[])[0]).split(';')[0]!;
  const csrf = /name="csrf" value="([^"]+)"/.exec((await h.api.get('/dashboard/keys').set('Cookie', cookie).expect(200)).text)![1]!;
  const keysBefore = await h.t.db.selectFrom('pro_api_keys').select(['id', 'revoked_at']).where('pro_id', '=', pro.id).execute();

  const locker = new pg.Client({ connectionString: h.t.url });
  await locker.connect();
  try {
    await locker.query('BEGIN');
    await locker.query('SELECT id FROM pros WHERE id = $1 FOR UPDATE', [pro.id]);
    const res = await h.api.post('/dashboard/key').set('Cookie', cookie).type('form').send({ csrf });
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('2');
    expect(res.text).toContain('Try again in a few seconds');
    // The lock is held well past the deadline, then let go: nothing of the request may run now.
    await new Promise((r) => setTimeout(r, 1500));
    await locker.query('COMMIT');
  } finally {
    await locker.end();
  }
  await new Promise((r) => setTimeout(r, 500));
  expect(await h.t.db.selectFrom('pro_api_keys').select(['id', 'revoked_at']).where('pro_id', '=', pro.id).execute()).toEqual(keysBefore);
  await h.api.get('/api/v1/my_business').set(auth).expect(200);
});
