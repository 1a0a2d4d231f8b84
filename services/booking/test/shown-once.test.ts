// What the book host's pages show once after a form, where no one signs in: a booking's
// confirmation (with its manage link) is held by the browser's visit and the cleaner it is
// shown under; a manage page's notice by the manage link it was made on; an authorization's
// hand-over between its steps by the visit. After their minutes each is gone, and says so.
import * as oauth from 'oauth4webapi';
import { signInCodeSentTo } from '@frontdesk/db/testing';
import { CONFIRMATION_SHOWN_MINUTES } from '@frontdesk/domain';
import { REQUEST_MINUTES } from '@frontdesk/oauth';
import { asPublic, booking, bothHostsPerFile, newCleaner } from '@frontdesk/dev-env/both-hosts';
import { bookHostOnPort, postForm, registerClient, type BookHost } from '@frontdesk/dev-env/oauth';
import { browse, CookieJar } from '@frontdesk/dev-env/cookie-jar';
import { bookOnThePage } from '@frontdesk/dev-env/booking-page';

const h = bothHostsPerFile();
const later = (clock: { now: Date }, minutes: number) => {
  clock.now = new Date(clock.now.getTime() + minutes * 60_000);
};

const contact = { customer_name: 'Rosa Diaz', customer_phone: '(212) 555-0177', address: '9 Elm St', zip: '10001' };
const manageLink = (page: string) => /\/manage\/([A-Za-z0-9_-]{43})/.exec(page)?.[1];

describe("a booking's confirmation goes with the visit that booked, under its cleaner's address", () => {
  async function bookedOnThePage() {
    const [c, other] = [await newCleaner(h), await newCleaner(h)];
    const browser = browse(h.book);
    const posted = await bookOnThePage(browser, c.pro.id, { pick: { bedrooms: '2', bathrooms: '1', start: '2026-11-24T08:00:00-05:00' }, details: contact });
    expect(posted.status).toBe(303);
    const confirmation = String(posted.headers.location);
    const shown = await browser.get(confirmation);
    expect(shown.text).toMatch(/You are booked/);
    return { c, other, browser, confirmation, token: manageLink(shown.text)! };
  }

  it("shows the manage link on every reload of the visit that booked, never under another cleaner's address, nor once the browser was closed", async () => {
    const { c, other, browser, confirmation, token } = await bookedOnThePage();
    expect(manageLink((await browser.get(confirmation)).text)).toBe(token);
    const elsewhere = await browser.get(confirmation.replace(c.pro.id, other.pro.id));
    expect(elsewhere.text).not.toContain(token);
    expect(elsewhere.text).toMatch(/shown only in the browser that made the booking, for 30 minutes after booking and until that browser is closed/);
    // Closed and opened again: the visit is gone though the confirmation's own cookie has minutes left.
    browser.jar.restart();
    expect(browser.jar.value('fd_booked')).toBeDefined();
    const reopened = await browser.get(confirmation);
    expect(reopened.text).not.toContain(token);
    expect(reopened.text).toMatch(/shown only in the browser that made the booking/);
  });

  it(`is gone after ${CONFIRMATION_SHOWN_MINUTES} minutes, with a page that says where the link went`, async () => {
    const { browser, confirmation, token } = await bookedOnThePage();
    later(h.clock, CONFIRMATION_SHOWN_MINUTES - 1);
    expect(manageLink((await browser.get(confirmation)).text)).toBe(token);
    later(h.clock, 2);
    const gone = await browser.get(confirmation);
    expect(gone.status).toBe(200);
    expect(gone.text).not.toContain(token);
    expect(gone.text).toMatch(/Your booking[\s\S]*If you gave an email address, the link to your booking was sent there/);
  });
});

describe("a manage page's notice goes with the manage link it was made on", () => {
  async function twoBookings() {
    const c = await newCleaner(h);
    const tokens = [];
    for (const start of ['2026-11-24T09:00:00-05:00', '2026-11-25T09:00:00-05:00']) {
      const made = await h.book.post('/api/v1/book_cleaning').set(asPublic).send(booking(c.pro.id, { start })).expect(200);
      tokens.push(made.body.manage_token as string);
    }
    return tokens as [string, string];
  }

  it("is shown on its own booking's page, never on another booking's page opened in the same browser", async () => {
    const [mine, theirs] = await twoBookings();
    const browser = browse(h.book);
    const yes = await browser.post(`/manage/${mine}/cancel`, { confirm: 'yes' });
    const notice = String(yes.headers.location);
    expect(notice).toMatch(new RegExp(`^/manage/${mine}\\?notice=`));
    expect((await browser.get(notice)).text).toMatch(/role="status">Cancelled/);
    const other = await browser.get(notice.replace(mine, theirs));
    expect(other.status).toBe(200);
    expect(other.text).not.toMatch(/role="status"/);
    expect(other.text).toMatch(/This cleaning is booked/);
  });

  it('is gone after its minutes: the page shows the booking as it is', async () => {
    const [mine] = await twoBookings();
    const browser = browse(h.book);
    const notice = String((await browser.post(`/manage/${mine}/cancel`, { confirm: 'yes' })).headers.location);
    later(h.clock, 6);
    const page = (await browser.get(notice)).text;
    expect(page).not.toMatch(/role="status"/);
    expect(page).toMatch(/This cleaning is cancelled/);
  });
});

describe("an authorization's steps go with the visit that began them", () => {
  let host: BookHost;
  let clientId = '';
  const redirectUri = 'http://127.0.0.1:9/callback';
  const clock = { now: new Date() };
  beforeAll(async () => {
    host = await bookHostOnPort(clock);
    clientId = (await registerClient(host, { redirect_uris: [redirectUri], client_name: 'Visits' })).client_id as string;
  });
  afterAll(() => host.close());

  /** A browser's GET of a step's page with what its jar holds for the path. */
  const open = async (jar: CookieJar, path: string) => {
    const res = await fetch(`${host.url}${path}`, { headers: { cookie: jar.header(path) } });
    jar.take(res);
    return res.text();
  };
  /** Starts an authorization and mails its code; answers the jar, the code page's address and the request. */
  async function toTheCodeStep(email: string) {
    const challenge = await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier());
    const q = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: redirectUri,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const requestId = /name="request_id" value="([^"]+)"/.exec(await (await fetch(`${host.url}/authorize?${q.toString()}`)).text())![1]!;
    const jar = new CookieJar();
    const sent = await postForm(host, '/authorize/email', { request_id: requestId, email });
    jar.take(sent);
    return { jar, requestId, codePage: sent.headers.get('location')! };
  }

  it('shows the code and consent steps to the visit that began them, and not once the browser was closed', async () => {
    const email = 'visitor@example.com';
    const { jar, requestId, codePage } = await toTheCodeStep(email);
    expect(await open(jar, codePage)).toMatch(/We sent a 6-digit code/);
    jar.restart();
    expect(await open(jar, codePage)).toMatch(/connect again/);

    const verified = await postForm(host, '/authorize/code', { request_id: requestId, email, code: await signInCodeSentTo(host.t.db, email) });
    const consentJar = new CookieJar();
    consentJar.take(verified);
    const consent = verified.headers.get('location')!;
    expect(await open(consentJar, consent)).toMatch(/asks to:/);
    consentJar.restart();
    const closed = await open(consentJar, consent);
    expect(closed).toMatch(/connect again/);
    expect(closed).not.toContain(email);
  });

  it(`says the sign-in expired after ${REQUEST_MINUTES} minutes`, async () => {
    const { jar, codePage } = await toTheCodeStep('slow@example.com');
    later(clock, REQUEST_MINUTES + 1);
    expect(await open(jar, codePage)).toMatch(/This sign-in has expired[\s\S]*connect again/);
  });
});
