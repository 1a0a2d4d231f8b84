// Text PostgreSQL cannot store (a NUL byte, a broken surrogate) and control characters, sent to
// the sign-in forms, their JSON twins and the OAuth endpoints: each is refused with a
// sentence, never a 500, and nothing of it reaches the database.
import { authorizeQuery, bothHostsPerFile, requestIdOn } from '@frontdesk/dev-env/both-hosts';

const h = bothHostsPerFile();
const NUL = '\u0000';

/** What a refusal says: a page's error line, or the JSON's error (or error_description). */
function said(res: { status: number; text: string; body: Record<string, unknown>; headers: Record<string, string> }): string {
  if (String(res.headers['content-type']).includes('html'))
    return /<p class="error" role="alert">([^<]+)<\/p>|<p>([^<]+)<\/p>/.exec(res.text)?.slice(1).find(Boolean) ?? res.text;
  return String(res.body.error_description ?? res.body.error);
}

const startOnBookHost = async () => requestIdOn((await h.book.get('/authorize').query(authorizeQuery()).expect(200)).text);

describe('unstorable characters outside the operations', () => {
  it('are refused with a sentence on every sign-in form and its JSON twin, on both hosts', async () => {
    const email = `nul${NUL}@example.com`;
    const cases: [string, Promise<any>][] = [
      ['POST /key/code', h.pro.post('/key/code').type('form').send({ email })],
      ['POST /key/verify', h.pro.post('/key/verify').type('form').send({ email, code: '123456' })],
      [
        'POST /key/verify (code)',
        h.pro
          .post('/key/verify')
          .type('form')
          .send({ email: 'a@example.com', code: `12${NUL}456` }),
      ],
      ['POST /key/api/code', h.pro.post('/key/api/code').send({ email })],
      ['POST /key/api/keys', h.pro.post('/key/api/keys').send({ email, code: '123456' })],
      ['POST /key/api/keys (code)', h.pro.post('/key/api/keys').send({ email: 'a@example.com', code: `12${NUL}456` })],
      ['POST /dashboard/code', h.pro.post('/dashboard/code').type('form').send({ email })],
      ['POST /dashboard/verify', h.pro.post('/dashboard/verify').type('form').send({ email, code: '123456' })],
      ['POST /signup/code', h.pro.post('/signup/code').type('form').send({ email })],
      ['POST /signup/api/code', h.pro.post('/signup/api/code').send({ email })],
      ['a control character in an email', h.pro.post('/key/api/code').send({ email: 'ctl\u0001@example.com' })],
      ['a bidi override in an email', h.pro.post('/key/api/code').send({ email: 'rtl\u202e@example.com' })],
    ];
    for (const [what, sent] of cases) {
      const res = await sent;
      expect([what, res.status]).toEqual([what, expect.any(Number)]);
      expect([what, res.status >= 400 && res.status < 500]).toEqual([what, true]);
      expect([what, said(res)]).toEqual([what, expect.stringMatching(/cannot be stored|is not an email address/)]);
    }
    // The forms say it on their own page, again.
    const page = await h.pro.post('/key/code').type('form').send({ email });
    expect(page.headers['content-type']).toMatch(/html/);
    expect(page.text).toMatch(/<form method="post" action="\/key\/code">/);
    expect(await h.t.db.selectFrom('sign_in_codes').select('id').execute()).toEqual([]);
  });

  it('are refused with a sentence in every OAuth parameter: the pending sign-in, the query, the token and the registration', async () => {
    const requestId = await startOnBookHost();
    const email = `nul${NUL}@example.com`;
    const cases: [string, Promise<any>][] = [
      ['POST /authorize/email', h.book.post('/authorize/email').type('form').send({ request_id: requestId, email })],
      ['POST /authorize/code', h.book.post('/authorize/code').type('form').send({ request_id: requestId, email, code: '123456' })],
      [
        'POST /authorize/code (code)',
        h.book
          .post('/authorize/code')
          .type('form')
          .send({ request_id: requestId, email: 'a@example.com', code: `1${NUL}` }),
      ],
      [
        'a request_id',
        h.book
          .post('/authorize/email')
          .type('form')
          .send({ request_id: `azr_${NUL}`, email: 'a@example.com' }),
      ],
      ['GET /authorize state', h.book.get('/authorize').query(authorizeQuery({ state: `s${NUL}` }))],
      ['GET /authorize client_id', h.book.get('/authorize').query({ client_id: `fdc_${NUL}` })],
      [
        'POST /token client_id',
        h.book
          .post('/token')
          .type('form')
          .send({ grant_type: 'authorization_code', client_id: `fdc_${NUL}`, code: 'x' }),
      ],
      ['POST /register client_name', h.book.post('/register').send({ client_name: `Helper${NUL}`, redirect_uris: ['https://a.example/cb'] })],
      ['POST /register redirect_uris', h.book.post('/register').send({ client_name: 'Helper', redirect_uris: [`https://a.example/c${NUL}b`] })],
      ['POST /register a redirect URI with a space', h.book.post('/register').send({ client_name: 'Helper', redirect_uris: ['https://a.example/c b'] })],
    ];
    for (const [what, sent] of cases) {
      const res = await sent;
      expect([what, res.status >= 400 && res.status < 500, res.status]).toEqual([what, true, expect.any(Number)]);
      expect([what, said(res)]).toEqual([what, expect.stringMatching(/cannot be stored|may not hold spaces, control or format characters/)]);
    }
    expect(await h.t.db.selectFrom('oauth_clients').select('id').where('name', 'like', 'Helper%').execute()).toEqual([]);
  });
});
