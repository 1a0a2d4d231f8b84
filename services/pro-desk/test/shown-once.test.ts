// What a page shows once after a form (packages/http/src/shown-once.ts), on the pro host: a
// result is held by the session that made it (or, before anyone is signed in, by the browser's
// visit), signing out clears it, and after its minutes it is gone with a page that says so. Each
// walk is one browser (a cookie jar that keeps paths and lifetimes) that two owners take turns on.
import { signInCodeSentTo } from '@frontdesk/db/testing';
import { SHOWN_ONCE_MINUTES } from '@frontdesk/domain';
import { newPro, proDeskHarnessPerFile } from '@frontdesk/dev-env/pro-desk';
import { browse, type Browsing } from '@frontdesk/dev-env/cookie-jar';
import { Receiver } from '@frontdesk/dev-env/webhook-receiver';

const h = proDeskHarnessPerFile();

let seq = 0;
/** A business whose owner signs in with a fresh address. */
async function owner() {
  const email = `turns${(seq += 1)}@shown.example`;
  return { email, ...(await newPro(h, { owner_email: email })) };
}
type Owner = Awaited<ReturnType<typeof owner>>;

const later = (minutes: number) => {
  h.clock.now = new Date(h.clock.now.getTime() + minutes * 60_000);
};

/** Signs `o` in to the dashboard on this browser by the emailed code; answers the session's form token. */
async function signIn(b: Browsing, o: Owner): Promise<string> {
  expect((await b.post('/dashboard/code', { email: o.email })).status).toBe(303);
  expect((await b.post('/dashboard/verify', { email: o.email, code: await signInCodeSentTo(h.t.db, o.email) })).status).toBe(303);
  const page = (await b.get('/dashboard')).text;
  expect(page).toContain(`<h1>${o.pro.name}</h1>`);
  return /name="csrf" value="([^"]+)"/.exec(page)![1]!;
}
const signOut = async (b: Browsing, path = '/dashboard') => expect((await b.post(`${path}/sign-out`)).status).toBe(303);

/**
 * Reloads `path` a minute before the shown-once time is up, where `read` still finds `key`, and a
 * minute after it, where the key is gone: that last answer, for what it says instead.
 */
async function shownUntilItsTime(browser: Browsing, path: string, read: (page: string) => string | undefined, key: string) {
  later(SHOWN_ONCE_MINUTES - 1);
  expect(read((await browser.get(path)).text)).toBe(key);
  later(2);
  const gone = await browser.get(path);
  expect(gone.text).not.toContain(key);
  return gone;
}

const dashKey = (page: string) => /id="new-key">(fdk_[A-Za-z0-9]{32})</.exec(page)?.[1];
const personalKey = (page: string) => /(fdp_[A-Za-z0-9]{32})/.exec(page)?.[1];

describe("the dashboard's results go with the session that made them", () => {
  it('shows a new key to the owner who made it on every reload, never to the next owner signed in on the same browser, even with the old cookie put back', async () => {
    const [a, b] = [await owner(), await owner()];
    const browser = browse(h.api);
    const made = await browser.post('/dashboard/key', { csrf: await signIn(browser, a) });
    const done = String(made.headers.location);
    expect(done).toMatch(/^\/dashboard\/keys\?done=[A-Za-z0-9_-]+$/);
    const key = dashKey((await browser.get(done)).text)!;
    expect(key).toBeDefined();
    expect(dashKey((await browser.get(done)).text)).toBe(key);
    const sealed = browser.jar.value('fd_dash_done')!;

    await signOut(browser);
    await signIn(browser, b);
    const seen = (await browser.get(done)).text;
    expect(seen).toContain(`<h1>Keys and calendar</h1>`);
    expect(seen).toContain(`Signed in as <strong>${b.email}</strong>`);
    expect(seen).not.toContain(key);
    expect(seen).toContain('What your last change showed here is no longer shown');
    // Signing out cleared the result from the browser.
    expect(browser.jar.value('fd_dash_done')).toBeUndefined();
    // A copy of A's result cookie (kept, or never cleared) opens nothing for B's session.
    browser.jar.set('fd_dash_done', sealed, '/dashboard');
    expect((await browser.get(done)).text).not.toContain(key);
    // Nor for A's next session: the result was the one session's.
    await signOut(browser);
    later(1); // a second code, mailed after the first
    await signIn(browser, a);
    browser.jar.set('fd_dash_done', sealed, '/dashboard');
    expect((await browser.get(done)).text).not.toContain(key);
  });

  it(`shows a new key for ${SHOWN_ONCE_MINUTES} minutes only: after that a reload says it is gone`, async () => {
    const a = await owner();
    const browser = browse(h.api);
    const done = String((await browser.post('/dashboard/key', { csrf: await signIn(browser, a) })).headers.location);
    const key = dashKey((await browser.get(done)).text)!;
    const gone = await shownUntilItsTime(browser, done, dashKey, key);
    expect(gone.status).toBe(200);
    expect(gone.text).toMatch(
      /role="status">(<bdi>)?What your last change showed here is no longer shown: it stays for 15 minutes, in the browser and the sign-in that made it\./,
    );
  });

  it("never shows a webhook's new secret to the next owner signed in on the same browser", async () => {
    const receiver = await new Receiver().start();
    try {
      const [a, b] = [await owner(), await owner()];
      const browser = browse(h.api);
      const added = await browser.post('/dashboard/webhooks', { csrf: await signIn(browser, a), url: receiver.url, events: 'all' });
      expect(added.status).toBe(303);
      const location = String(added.headers.location);
      expect(location).toMatch(/secret=/);
      // A leaves before the page shows the secret; B signs in on the same browser and opens A's address.
      await signOut(browser);
      await signIn(browser, b);
      expect((await browser.get(location)).text).not.toMatch(/whsec_/);
    } finally {
      await receiver.stop();
    }
  });

  it(`shows a webhook's secret to the session that made it, and not after ${SHOWN_ONCE_MINUTES} minutes`, async () => {
    const receiver = await new Receiver().start();
    try {
      const browser = browse(h.api);
      const csrf = await signIn(browser, await owner());
      const now = String((await browser.post('/dashboard/webhooks', { csrf, url: receiver.url, events: 'all' })).headers.location);
      expect((await browser.get(now)).text).toMatch(/id="webhook-secret">whsec_/);
      const late = String((await browser.post('/dashboard/webhooks', { csrf, url: `${receiver.url}/2`, events: 'all' })).headers.location);
      later(SHOWN_ONCE_MINUTES + 1);
      const gone = (await browser.get(late)).text;
      expect(gone).not.toMatch(/whsec_/);
      expect(gone).toMatch(/The secret was shown once and is hidden now/);
    } finally {
      await receiver.stop();
    }
  });
});

describe("the /key page's new key goes with the session that made it", () => {
  async function keySignIn(b: Browsing, email: string) {
    await b.post('/key/code', { email });
    expect((await b.post('/key/verify', { email, code: await signInCodeSentTo(h.t.db, email) })).headers.location).toBe('/key');
  }

  it('shows the key to the signed-in person who made it, not once they signed out, and never to the next person signed in on the same browser', async () => {
    const browser = browse(h.api);
    await keySignIn(browser, 'first@key.example');
    const made = String((await browser.post('/key/create')).headers.location);
    const key = personalKey((await browser.get(made)).text)!;
    expect(key).toBeDefined();
    const sealed = browser.jar.value('fd_key_new')!;
    await signOut(browser, '/key');
    const signedOut = await browser.get(made);
    expect(signedOut.status).toBe(404);
    expect(personalKey(signedOut.text)).toBeUndefined();
    await keySignIn(browser, 'second@key.example');
    browser.jar.set('fd_key_new', sealed, '/key');
    const other = await browser.get(made);
    expect(other.status).toBe(404);
    expect(other.text).not.toContain(key);
    expect(other.text).toContain('This key is no longer shown here');
  });

  it(`is gone after ${SHOWN_ONCE_MINUTES} minutes, with a page that says so`, async () => {
    const browser = browse(h.api);
    await keySignIn(browser, 'late@key.example');
    const made = String((await browser.post('/key/create')).headers.location);
    const key = personalKey((await browser.get(made)).text)!;
    later(SHOWN_ONCE_MINUTES + 1);
    const gone = await browser.get(made);
    expect(gone.status).toBe(404);
    expect(gone.text).not.toContain(key);
    expect(gone.text).toMatch(/This key is no longer shown here: it was shown for 15 minutes, in the browser that made it/);
  });
});

describe("sign-up's key goes with the dashboard session sign-up opens", () => {
  async function signUp(b: Browsing, email: string) {
    await b.post('/signup/code', { email });
    const made = await b.post('/signup/business', {
      email,
      code: await signInCodeSentTo(h.t.db, email),
      name: `Turns ${(seq += 1)}`,
      timezone: 'America/New_York',
      zips: '10001',
    });
    expect(made.status).toBe(303);
    return String(made.headers.location);
  }
  const signUpKey = (page: string) => /id="new-key">(fdk_[A-Za-z0-9]{32})</.exec(page)?.[1];

  it('shows the new business its key signed in, and no longer once it signed out, nor to the next owner on the same browser', async () => {
    const browser = browse(h.api);
    const ready = await signUp(browser, 'new@signup.example');
    const key = signUpKey((await browser.get(ready)).text)!;
    expect(key).toBeDefined();
    await signOut(browser);
    expect(signUpKey((await browser.get(ready)).text)).toBeUndefined();
    const next = await owner();
    await signIn(browser, next);
    const seen = await browser.get(ready);
    expect(seen.text).toContain(`Signed in as <strong>${next.email}</strong>`);
    expect(seen.text).not.toContain(key);
  });

  it(`keeps showing the key when another dashboard form shows its result, and says it is gone after ${SHOWN_ONCE_MINUTES} minutes, and where to make another`, async () => {
    const browser = browse(h.api);
    const ready = await signUp(browser, 'late@signup.example');
    const key = signUpKey((await browser.get(ready)).text)!;
    const csrf = /name="csrf" value="([^"]+)"/.exec((await browser.get('/dashboard')).text)![1]!;
    const seen = await browser.post('/dashboard/notifications/read', { csrf });
    expect((await browser.get(String(seen.headers.location))).text).toMatch(/role="status">(<bdi>)?Marked as seen/);
    const gone = await shownUntilItsTime(browser, ready, signUpKey, key);
    expect(gone.status).toBe(404);
    expect(gone.text).toMatch(/This key is no longer shown here[\s\S]*href="\/dashboard\/keys"/);
  });
});

describe('a sign-in step before anyone is signed in goes with the visit', () => {
  it('no longer shows the address a code went to once the owner signed in and out, to the next person on the browser', async () => {
    const a = await owner();
    const browser = browse(h.api);
    const sent = String((await browser.post('/dashboard/code', { email: a.email })).headers.location);
    expect((await browser.get(sent)).text).toContain(`We sent a 6-digit code to <strong>${a.email}</strong>`);
    await browser.post('/dashboard/verify', { email: a.email, code: await signInCodeSentTo(h.t.db, a.email) });
    await signOut(browser);
    const after = (await browser.get(sent)).text;
    expect(after).not.toContain(a.email);
    expect(after).toMatch(/Business email/);
  });

  it.each(['/dashboard/code', '/key/code', '/signup/code'])(
    '%s: a browser closed and opened again no longer continues, nor does one after the minutes',
    async (step) => {
      const email = `visit${(seq += 1)}@shown.example`;
      const browser = browse(h.api);
      const sent = String((await browser.post(step, { email })).headers.location);
      expect((await browser.get(sent)).text).toContain(`We sent a 6-digit code to <strong>${email}</strong>`);
      browser.jar.restart();
      expect((await browser.get(sent)).text).not.toContain(email);

      const again = browse(h.api);
      const resent = String((await again.post(step, { email: `again.${email}` })).headers.location);
      later(SHOWN_ONCE_MINUTES + 1);
      const gone = (await again.get(resent)).text;
      expect(gone).not.toContain(`again.${email}`);
      expect(gone).toMatch(
        /role="alert">That step is no longer open here: it stays 15 minutes, in the browser that asked for the code\. Give your email again for a new code\./,
      );
    },
  );
});
