// A business signs itself up: the /signup page and /signup/api (src/sign-up-page.ts).
import { signInCodeSentTo } from '@frontdesk/db/testing';
import { openSignInPage, proDeskHarnessPerFile } from '@frontdesk/dev-env/pro-desk';
import { cookiesFrom } from '@frontdesk/dev-env/cookie-jar';

const h = proDeskHarnessPerFile();

let seq = 0;
const freshEmail = () => `owner${(seq += 1)}.${Date.now()}@Example.com`;
const codeSentTo = (email: string) => signInCodeSentTo(h.t.db, email);
const keyIn = (text: string) => /(fdk_[A-Za-z0-9]{32})/.exec(text)?.[1];
const businessesOf = (email: string) => h.t.db.selectFrom('pros').selectAll().where('owner_email', '=', email.toLowerCase()).execute();

const details = { name: 'Maple Street Maids', timezone: 'America/Chicago', service_zips: ['60601', '60602'] };

describe('the /signup page', () => {
  it('verifies the email with a code, creates the business with default prices and hours, and shows its key once', async () => {
    const email = freshEmail();
    const start = await openSignInPage(h, '/signup');
    expect(start.text).toMatch(/booking fee of \d+ USD for each booking a customer makes/);
    const sent = await h.api.post('/signup/code').type('form').send({ email }).expect(303);
    const asked = await h.api.get(sent.headers.location!).set('Cookie', cookiesFrom(sent)).expect(200);
    expect(asked.text).toContain(`We sent a 6-digit code to <strong>${email.toLowerCase()}</strong>`);
    expect(asked.text).toMatch(/<option value="America\/Chicago"\s*>/);
    // Zones beyond the United States read as places, not as their IANA names.
    expect(asked.text).toMatch(/<option value="America\/Argentina\/La_Rioja"\s*>America, Argentina, La Rioja</);

    const form = { email: email.toLowerCase(), name: ' Maple Street Maids ', timezone: 'America/Chicago', zips: '60601, 60602', phone: '', website: '' };
    // A typo in the details is shown on the page and does not spend the code.
    const typo = await h.api
      .post('/signup/business')
      .type('form')
      .send({ ...form, zips: '6060', code: await codeSentTo(email) })
      .expect(400);
    expect(typo.text).toMatch(/ZIP codes you serve must be exactly 5 digits each; not: 6060/);
    expect(typo.text).toMatch(/id="f-zips"[^>]*aria-invalid="true"/);
    expect(typo.text).toContain('value=" Maple Street Maids "');
    expect(await businessesOf(email)).toEqual([]);

    const made = await h.api
      .post('/signup/business')
      .type('form')
      .send({ ...form, code: await codeSentTo(email) })
      .expect(303);
    // Signed up is signed in: the business's first page is in its dashboard, with the session sign-up opened.
    expect(made.headers.location).toMatch(/^\/dashboard\/welcome\?key=[A-Za-z0-9_-]+$/);
    expect(cookiesFrom(made)).toMatch(/^fd_pro_session=[A-Za-z0-9_-]+; fd_first_key=[A-Za-z0-9_-]+$/);
    const done = await h.api.get(made.headers.location!).set('Cookie', cookiesFrom(made)).expect(200);
    expect(done.headers['cache-control']).toBe('no-store');
    const key = keyIn(done.text)!;
    expect(done.text).toMatch(/this page shows it only in this browser, to you while you stay signed in, for 15 minutes; after that it is not shown again/);
    expect(done.text).not.toMatch(/only this once/);
    expect(done.text).toContain('http://pro.test/mcp');
    expect(done.text).toMatch(/booking fee of \d+ USD/);
    expect(done.text).toContain('<a href="/dashboard">Go to your dashboard</a>');
    expect(done.text).toContain('Signed in as <strong>');
    // A reload shows the same key and makes nothing twice; the dashboard is signed in, asking for no code.
    expect(keyIn((await h.api.get(made.headers.location!).set('Cookie', cookiesFrom(made)).expect(200)).text)).toBe(key);
    const dashboard = (await h.api.get('/dashboard').set('Cookie', cookiesFrom(made)).expect(200)).text;
    expect(dashboard).toContain('<h1>Maple Street Maids</h1>');
    expect(dashboard).not.toMatch(/Business email/);
    // Without the cookies (another browser) the key is gone: the dashboard's sign-in instead.
    const elsewhere = (await h.api.get(made.headers.location!).expect(200)).text;
    expect(keyIn(elsewhere)).toBeUndefined();
    expect(elsewhere).toMatch(/Business email/);
    expect(await businessesOf(email)).toHaveLength(1);
    // Back and the same form again: the spent code is refused, with the way to the business made.
    const resent = await h.api
      .post('/signup/business')
      .type('form')
      .send({ ...form, code: await codeSentTo(email) })
      .expect(400);
    expect(resent.text).toMatch(/That code was already used/);
    // Where a code is asked for anyway, the address is filled in.
    const signIn = /Signed up already\? <a href="([^"]+)">Sign in to your dashboard<\/a>/.exec(resent.text)![1]!.replace(/&amp;/g, '&');
    expect((await h.api.get(signIn).expect(200)).text).toMatch(
      new RegExp(`Business email <input type="email" name="email"[^>]*value="${email.toLowerCase()}"`),
    );
    expect(await businessesOf(email)).toHaveLength(1);

    const [pro] = await businessesOf(email);
    expect(pro).toMatchObject({ name: 'Maple Street Maids', timezone: 'America/Chicago', service_zips: ['60601', '60602'], email: email.toLowerCase() });
    expect(JSON.stringify(await h.t.db.selectFrom('pro_api_keys').selectAll().where('pro_id', '=', pro!.id).execute())).not.toContain(key);
    const { body } = await h.api.get('/api/v1/my_business').set('Authorization', `Bearer ${key}`).expect(200);
    expect(body).toMatchObject({
      pro_id: pro!.id,
      name: 'Maple Street Maids',
      timezone: 'America/Chicago',
      prices: { base: 60, minimum: 120 },
      working_hours: { monday: ['08:00-17:00'], sunday: [] },
      time_off: [],
    });
  });

  it('refuses a form posted from another site', async () => {
    const res = await h.api.post('/signup/code').set('Origin', 'https://evil.example').type('form').send({ email: freshEmail() }).expect(403);
    expect(res.text).toMatch(/only be sent from this site/);
  });

  it('shows a bad address on the page, in plain words', async () => {
    const res = await h.api.post('/signup/code').type('form').send({ email: 'not-an-email' }).expect(400);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.text).toMatch(/email &quot;not-an-email&quot; is not an email address/);
  });
});

describe('/signup/api for assistants', () => {
  const signUp = (body: object) => h.api.post('/signup/api/business').send(body);

  it('signs a business up with the code from the email and answers its key, which works at once', async () => {
    const email = freshEmail();
    const sent = await h.api.post('/signup/api/code').send({ email }).expect(202);
    expect(sent.body).toMatchObject({ email: email.toLowerCase() });
    const res = await signUp({ email, code: await codeSentTo(email), ...details, phone: '(312) 555-0100', website: 'https://maple.example' }).expect(201);
    expect(res.body).toMatchObject({
      pro_id: expect.stringMatching(/^pro_/),
      name: 'Maple Street Maids',
      api_key: expect.stringMatching(/^fdk_/),
      mcp_url: 'http://pro.test/mcp',
      booking_page: `http://book.test/book/${res.body.pro_id}`,
    });
    const shown = await h.api.get('/api/v1/my_business').set('Authorization', `Bearer ${res.body.api_key}`).expect(200);
    expect(shown.body).toMatchObject({ phone: '(312) 555-0100', website: 'https://maple.example', email: email.toLowerCase() });
  });

  it('tells an address that already owns a business to sign in instead, and creates nothing twice', async () => {
    const email = freshEmail();
    await h.api.post('/signup/api/code').send({ email }).expect(202);
    await signUp({ email, code: await codeSentTo(email), ...details }).expect(201);
    h.clock.now = new Date(h.clock.now.getTime() + 60_000); // the second code is the newer one
    await h.api.post('/signup/api/code').send({ email }).expect(202);
    const again = await signUp({ email, code: await codeSentTo(email), ...details, name: 'Second Try' }).expect(400);
    expect(again.body.error).toMatch(/already signed up Maple Street Maids; .* Sign in with it instead/);
    expect(await businessesOf(email)).toHaveLength(1);
  });

  it('makes one business when the same code is sent twice at once', async () => {
    const email = freshEmail();
    await h.api.post('/signup/api/code').send({ email }).expect(202);
    const code = await codeSentTo(email);
    const results = await Promise.all([signUp({ email, code, ...details }), signUp({ email, code, ...details })]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 400]);
    expect(await businessesOf(email)).toHaveLength(1);
  });

  it.each([
    [{ service_zips: '60601' }, /service_zips must be a list/],
    [{ service_zips: ['606'] }, /service_zips\[0\] must be exactly 5 digits/],
    [{ service_zips: [] }, /service_zips must have at least 1 items/],
    [{ timezone: 'Mars/Olympus' }, /timezone "Mars\/Olympus" is not an IANA time zone/],
    [{ name: '' }, /name must not be empty/],
    [{ website: 'maple' }, /website "maple" is not a web address/],
    [{ phone: 'none' }, /phone "none" is not a phone number/],
    [{ plan: 'pro' }, /plan is not a field/],
  ])('refuses %j with a 400 naming the field, and keeps the code for a corrected try', async (over, message) => {
    const email = freshEmail();
    await h.api.post('/signup/api/code').send({ email }).expect(202);
    const code = await codeSentTo(email);
    const res = await signUp({ email, code, ...details, ...over }).expect(400);
    expect(res.body.error).toMatch(message);
    await signUp({ email, code, ...details }).expect(201);
  });

  it('refuses a wrong code and counts the try', async () => {
    const email = freshEmail();
    await h.api.post('/signup/api/code').send({ email }).expect(202);
    const code = await codeSentTo(email);
    const res = await signUp({ email, code: code === '000000' ? '111111' : '000000', ...details }).expect(400);
    expect(res.body.error).toMatch(/That code is not right; 4 tries left/);
    expect(await businessesOf(email)).toEqual([]);
  });
});
