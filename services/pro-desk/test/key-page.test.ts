import { deliverOutbox, findPersonalKey, type MailTransport } from '@frontdesk/db';
import { signInCodeSentTo } from '@frontdesk/db/testing';
import { openSignInPage, proDeskHarnessPerFile, MONDAY_7AM } from '@frontdesk/dev-env/pro-desk';
import { cookiesFrom } from '@frontdesk/dev-env/cookie-jar';

const h = proDeskHarnessPerFile();

let seq = 0;
const freshEmail = () => `customer${(seq += 1)}.${Date.now()}@example.com`;
const codeSentTo = (email: string) => signInCodeSentTo(h.t.db, email);

describe('the /key page', () => {
  it('signs in with an emailed code and shows a new personal key once, which can then be revoked', async () => {
    const email = freshEmail();
    await openSignInPage(h, '/key');
    // Post/Redirect/Get: the code goes out once; the page it lands on (and a reload of it) shows the code form.
    const sent = await h.api.post('/key/code').type('form').send({ email }).expect(303);
    expect(sent.headers.location).toMatch(/^\/key\/code\?sent=[A-Za-z0-9_-]+$/);
    const sentCookie = cookiesFrom(sent);
    for (let i = 0; i < 2; i += 1) {
      const shown = await h.api.get(sent.headers.location!).set('Cookie', sentCookie).expect(200);
      expect(shown.text).toContain(`We sent a 6-digit code to <strong>${email}</strong>`);
    }
    expect(await h.t.db.selectFrom('outbox').select('id').where('to_address', '=', email).execute()).toHaveLength(1);
    // Without the browser's cookie (the address pasted elsewhere) it is the first step again.
    expect((await h.api.get(sent.headers.location!).expect(200)).text).toMatch(/<form method="post" action="\/key\/code">/);
    const code = await codeSentTo(email);
    const stored = await h.t.db.selectFrom('sign_in_codes').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(code);

    const verified = await h.api.post('/key/verify').type('form').send({ email, code }).expect(303);
    expect(verified.headers.location).toBe('/key');
    expect(String(verified.headers['set-cookie'])).toMatch(/fd_key_session=.+; Path=\/key; HttpOnly; SameSite=Strict; Max-Age=1800/);
    const cookie = cookiesFrom(verified);
    expect((await h.api.get('/key').set('Cookie', cookie).expect(200)).text).toMatch(/Signed in as <strong>.*<\/strong>[\s\S]*You have no keys yet/);

    const made = await h.api.post('/key/create').set('Cookie', cookie).expect(303);
    expect(made.headers.location).toMatch(/^\/key\/new\?ref=/);
    // The key is shown to the session that made it, in the browser that keeps it.
    const madeCookie = `${cookie}; ${cookiesFrom(made)}`;
    const created = await h.api.get(made.headers.location!).set('Cookie', madeCookie).expect(200);
    const key = /(fdp_[A-Za-z0-9]{32})/.exec(created.text)![1]!;
    expect(created.text).toMatch(/this page shows it only in this browser, to you while you stay signed in, for 15 minutes/);
    expect(created.text).not.toMatch(/only this once/);
    expect((await findPersonalKey(h.t.db, key))?.email).toBe(email);
    // A reload shows the same key and makes no other; another browser sees nothing.
    expect((await h.api.get(made.headers.location!).set('Cookie', madeCookie).expect(200)).text).toContain(key);
    expect((await h.api.get(made.headers.location!).expect(404)).text).not.toContain(key);
    expect(await h.t.db.selectFrom('personal_keys').select('id').where('email', '=', email).execute()).toHaveLength(1);
    const listed = await h.api.get('/key').set('Cookie', cookie).expect(200);
    expect(listed.text).toContain(`fdp_…${key.slice(-4)}`);
    expect(listed.text).not.toContain(key);

    const keyId = /name="key_id" value="([^"]+)"/.exec(listed.text)![1]!;
    await h.api.post('/key/revoke').set('Cookie', cookie).type('form').send({ key_id: keyId }).expect(303);
    expect(await findPersonalKey(h.t.db, key)).toBeUndefined();
    await h.api.post('/key/sign-out').set('Cookie', cookie).expect(303);
    await h.api.post('/key/create').set('Cookie', cookie).expect(401);
  });

  it('refuses a wrong code with the tries left, then locks the code; an expired or used code is refused', async () => {
    const email = freshEmail();
    await h.api.post('/key/code').type('form').send({ email }).expect(303);
    const code = await codeSentTo(email);
    const wrong = code === '000000' ? '111111' : '000000';
    const first = await h.api.post('/key/verify').type('form').send({ email, code: wrong }).expect(400);
    expect(first.text).toMatch(/That code is not right; 4 tries left/);
    for (let i = 0; i < 4; i += 1) await h.api.post('/key/verify').type('form').send({ email, code: wrong });
    const locked = await h.api.post('/key/verify').type('form').send({ email, code }).expect(429);
    expect(locked.text).toMatch(/Too many wrong tries/);

    const other = freshEmail();
    await h.api.post('/key/code').type('form').send({ email: other }).expect(303);
    const late = await codeSentTo(other);
    h.clock.now = new Date(MONDAY_7AM.getTime() + 11 * 60_000);
    expect((await h.api.post('/key/verify').type('form').send({ email: other, code: late }).expect(400)).text).toMatch(/That code has expired/);

    await h.api.post('/key/code').type('form').send({ email: other }).expect(303);
    const fresh = await codeSentTo(other);
    await h.api.post('/key/verify').type('form').send({ email: other, code: fresh }).expect(303);
    expect((await h.api.post('/key/verify').type('form').send({ email: other, code: fresh }).expect(400)).text).toMatch(/already used/);
  });

  it('limits codes per address, refuses a bad email and forms from other sites', async () => {
    const email = freshEmail();
    for (let i = 0; i < 5; i += 1) await h.api.post('/key/code').type('form').send({ email }).expect(303);
    expect((await h.api.post('/key/code').type('form').send({ email }).expect(429)).text).toMatch(/Too many codes were sent/);
    expect((await h.api.post('/key/code').type('form').send({ email: 'not-an-email' }).expect(400)).text).toMatch(/is not an email address/);
    await h.api.post('/key/code').set('Origin', 'https://evil.example').type('form').send({ email: freshEmail() }).expect(403);
  });
});

describe('the /key API for assistants', () => {
  it('sends a code, trades it for a key, and revokes a key presented as a bearer', async () => {
    const email = freshEmail();
    const sent = await h.api.post('/key/api/code').send({ email }).expect(202);
    expect(sent.body).toMatchObject({ email });
    const wrong = await h.api.post('/key/api/keys').send({ email, code: '12345' }).expect(400);
    expect(wrong.body.error).toMatch(/6 digits/);
    const made = await h.api
      .post('/key/api/keys')
      .send({ email, code: await codeSentTo(email) })
      .expect(201);
    expect(made.body.key).toMatch(/^fdp_[A-Za-z0-9]{32}$/);
    await h.api.post('/key/api/revoke').set('Authorization', `Bearer ${made.body.key}`).expect(200);
    expect(await findPersonalKey(h.t.db, made.body.key)).toBeUndefined();
    await h.api.post('/key/api/revoke').set('Authorization', `Bearer ${made.body.key}`).expect(400);
  });
});

describe('the outbox', () => {
  it('delivers each mail once and retries a failure later', async () => {
    const email = freshEmail();
    await h.api.post('/key/api/code').send({ email }).expect(202);
    const sent: string[] = [];
    let failNext = true;
    const transport: MailTransport = {
      send: async (m) => {
        if (m.to === email && failNext) {
          failNext = false;
          throw new Error('SMTP 451 try later');
        }
        sent.push(m.to);
      },
    };
    await deliverOutbox(h.t.db, transport, 1000);
    const failed = await h.t.db.selectFrom('outbox').selectAll().where('to_address', '=', email).executeTakeFirstOrThrow();
    expect(failed).toMatchObject({ sent_at: null, attempts: 1, last_error: 'SMTP 451 try later' });
    await h.t.db
      .updateTable('outbox')
      .set({ next_attempt_at: new Date(0) })
      .where('id', '=', failed.id)
      .execute();
    await Promise.all([deliverOutbox(h.t.db, transport, 1000), deliverOutbox(h.t.db, transport, 1000)]);
    expect(sent.filter((to) => to === email)).toHaveLength(1);
  });
});
