import type { Server } from 'node:http';
import { chromium, type Browser, type Page } from 'playwright-core';
import { freePort } from '@frontdesk/db';
import { createTestDatabase, signInCodeSentTo, type TestDatabase } from '@frontdesk/db/testing';
import { closeServer, createLogger, listen } from '@frontdesk/http';
import { createProDeskApp } from '@frontdesk/pro-desk';
import { TEST_KEY_SEALER } from '@frontdesk/dev-env/pro-desk';
import { CHROMIUM_ARGS, ensureChromium } from './browser';
import { SHOWN_ONCE_MINUTES } from '@frontdesk/domain';
import { createOwnedBusiness } from '@frontdesk/use-cases';
import { auditAtBothWidths, expectPeoplesWords, reloadAsAPerson, signInToDashboard, signUp, type Audit, type Site } from './page-flows';

// The pro host's account pages as a person lives in them, at a phone's width and a desk's:
// sign-up and /key, what they and the dashboard show once (to whom, and for how long), with a reload after every form (which must show the same page again and
// never mail, make or sign up anything twice), the words a person reads, nothing fetched from
// another site, and the API reference fitting a phone.
jest.setTimeout(180_000);

const found = ensureChromium();
if ('reason' in found) process.stdout.write(`\nSkipping the account page walks: ${found.reason}.\n`);
const maybe = 'path' in found ? describe : describe.skip;

let t: TestDatabase;
let browser: Browser;
let server: Server;
let pro = '';
let skew = 0;

const site = (): Site => ({ pro, book: '', codeSentTo: (email) => signInCodeSentTo(t.db, email) });

/** Makes the business's new key on its dashboard, as the owner would; ends on the page that shows it. */
async function newDashboardKey(page: Page): Promise<string> {
  await page.goto(`${pro}/dashboard/keys`);
  await page.getByRole('link', { name: 'Make a new key' }).click();
  await page.getByRole('button', { name: 'Stop the old key and make a new one' }).click();
  return (await page.textContent('#new-key'))!.trim();
}

const mailsTo = async (email: string) => (await t.db.selectFrom('outbox').select('id').where('to_address', '=', email).execute()).length;
const businessesOf = async (email: string) => (await t.db.selectFrom('pros').select('id').where('owner_email', '=', email).execute()).length;
const keysOf = async (email: string) =>
  (await t.db.selectFrom('personal_keys').select('id').where('email', '=', email).where('revoked_at', 'is', null).execute()).length;

/** Every request the page makes that leaves our host. */
function elsewhere(page: Page): string[] {
  const left: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.protocol.startsWith('http') && url.origin !== pro) left.push(r.url());
  });
  return left;
}

/** A page a person reads: axe-clean and in people's words. */
async function read(page: Page, audit: Audit, what: string): Promise<void> {
  await audit(what);
  await expectPeoplesWords(page, what);
}

maybe('the account pages of the pro host (Debian chromium)', () => {
  beforeAll(async () => {
    t = await createTestDatabase();
    const port = await freePort();
    pro = `http://127.0.0.1:${port}`;
    const config = {
      publicUrl: pro,
      bookingUrl: `http://127.0.0.1:${await freePort()}`,
      mcpAllowedOrigins: [],
      keySealer: TEST_KEY_SEALER,
      checkAnswers: true,
    };
    // The real clock, moved ahead by `skew` where a test looks past a result's minutes.
    const clock = () => new Date(Date.now() + skew);
    server = await listen(createProDeskApp({ db: t.db, config, logger: createLogger('account', 'silent'), clock }).app, port, '127.0.0.1');
    browser = await chromium.launch({ executablePath: (found as { path: string }).path, headless: true, args: CHROMIUM_ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    await closeServer(server);
    await t?.drop();
  });

  it('sign-up: the fee said first, one code per request, a refusal in the form’s words, and the key shown again on reload', async () => {
    await auditAtBothWidths(browser, async (page, width, audit) => {
      const left = elsewhere(page);
      const email = `walk.signup${width}@example.com`;
      await page.goto(`${pro}/signup`);
      expect(await page.innerText('main')).toMatch(/booking fee of \d+ USD for each booking a customer makes/);
      await read(page, audit, '/signup');
      await page.getByLabel('Your email').fill(email);
      await page.getByRole('button', { name: 'Send me a code' }).click();
      await page.getByLabel('Business name').waitFor();
      await read(page, audit, '/signup code sent');
      await reloadAsAPerson(page);
      await page.getByLabel('Business name').waitFor();
      expect(await mailsTo(email)).toBe(1);

      await page.getByLabel('Code from the email').fill(await signInCodeSentTo(t.db, email));
      await page.getByLabel('Business name').fill(`Walk ${width}`);
      // The ZIPs' hint is a line of its own under the label, never run on after it.
      const [zipLabel, zipHint] = [await page.locator('label[for="f-zips"]').boundingBox(), await page.locator('#f-zips-hint').boundingBox()];
      expect(zipHint!.y).toBeGreaterThanOrEqual(zipLabel!.y + zipLabel!.height - 1);
      await page.getByLabel('ZIP codes you serve').fill('1000');
      await page.getByRole('button', { name: 'Create my business' }).click();
      await page.getByRole('alert').waitFor();
      expect(await page.getByRole('alert').innerText()).toMatch(/^ZIP codes you serve must be exactly 5 digits/);
      expect(await page.getByLabel('ZIP codes you serve').getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByLabel('Business name').inputValue()).toBe(`Walk ${width}`);
      await read(page, audit, '/signup refused');

      await page.getByLabel('Code from the email').fill(await signInCodeSentTo(t.db, email));
      await page.getByLabel('ZIP codes you serve').fill('10001');
      await page.getByRole('button', { name: 'Create my business' }).click();
      const key = (await page.locator('#new-key').innerText()).trim();
      // Signed up is signed in: the key is on the business's first dashboard page, and says for whom and how long.
      expect(page.url()).toMatch(/\/dashboard\/welcome\?key=/);
      const main = await page.innerText('main');
      expect(main).toMatch(/booking fee of \d+ USD/);
      expect(main).toMatch(/this page shows it only in this browser, to you while you stay signed in, for 15 minutes; after that it is not shown again/);
      expect(main).not.toMatch(/only this once/);
      await read(page, audit, '/dashboard/welcome');
      await reloadAsAPerson(page);
      expect((await page.locator('#new-key').innerText()).trim()).toBe(key);
      expect(await businessesOf(email)).toBe(1);
      await page.getByRole('link', { name: 'Go to your dashboard' }).click();
      await page.getByRole('heading', { name: `Walk ${width}`, level: 1 }).waitFor();
      expect(await page.getByLabel('Business email').count()).toBe(0);
      await read(page, audit, '/dashboard after sign-up');
      await reloadAsAPerson(page);
      await page.getByRole('heading', { name: `Walk ${width}`, level: 1 }).waitFor();
      expect(left).toEqual([]);
    });
  });

  it('sign-up again with an address that has a business: the way to sign in has the address filled in, and one code signs in', async () => {
    await auditAtBothWidths(browser, async (page, width, audit) => {
      const email = `walk.again${width}@example.com`;
      await signUp(page, site(), email, `Again ${width}`);
      await page.getByRole('link', { name: 'Go to your dashboard' }).click();
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('Business email').waitFor();
      expect(await page.getByLabel('Business email').inputValue()).toBe('');

      await page.goto(`${pro}/signup`);
      await page.getByLabel('Your email').fill(email);
      await page.getByRole('button', { name: 'Send me a code' }).click();
      await page.getByLabel('Business name').waitFor();
      await reloadAsAPerson(page);
      await page.getByRole('link', { name: 'Sign in to your dashboard' }).click();
      expect(await page.getByLabel('Business email').inputValue()).toBe(email);
      await read(page, audit, '/dashboard sign-in from sign-up');
      await page.getByRole('button', { name: 'Send me a code' }).click();
      await page.getByLabel('Code').waitFor();
      await reloadAsAPerson(page);
      await read(page, audit, '/dashboard code from sign-up');
      await page.getByLabel('Code').fill(await signInCodeSentTo(t.db, email));
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: `Again ${width}`, level: 1 }).waitFor();
      await reloadAsAPerson(page);
      await page.getByRole('heading', { name: `Again ${width}`, level: 1 }).waitFor();
    });
  });

  it("two owners in one browser: A's new key at A's address is not shown once A signed out and B signed in", async () => {
    await auditAtBothWidths(browser, async (page, width, audit) => {
      const [a, b] = [`owner.a${width}@example.com`, `owner.b${width}@example.com`];
      await createOwnedBusiness(t.db, { name: `Owner B ${width}`, timezone: 'America/New_York', service_zips: ['10001'], owner_email: b });
      const signUpKey = await signUp(page, site(), a, `Owner A ${width}`);
      const welcome = page.url();
      await signInToDashboard(page, site(), a, `Owner A ${width}`);
      const key = await newDashboardKey(page);
      const done = page.url();
      expect(done).toMatch(/\/dashboard\/keys\?done=/);
      await reloadAsAPerson(page);
      expect((await page.textContent('#new-key'))!.trim()).toBe(key);
      await page.getByRole('button', { name: 'Sign out' }).click();

      await signInToDashboard(page, site(), b, `Owner B ${width}`);
      await page.goto(done);
      await page.getByRole('heading', { name: 'Keys and calendar', level: 1 }).waitFor();
      expect(await page.locator('#new-key').count()).toBe(0);
      expect(await page.innerText('body')).not.toContain(key);
      expect(await page.locator('.dash-head').innerText()).toContain(`Signed in as ${b}`);
      expect(await page.getByRole('status').innerText()).toMatch(/^What your last change showed here is no longer shown/);
      await read(page, audit, "A's result opened by B");
      // A's sign-up page, opened by B, shows no key either.
      await page.goto(welcome);
      expect(await page.locator('#new-key').count()).toBe(0);
      expect(await page.innerText('body')).not.toContain(signUpKey);
      await read(page, audit, "A's sign-up page opened by B");
    });
  });

  it(`after ${SHOWN_ONCE_MINUTES} minutes a shown key is gone, with a page that says so and where to make another`, async () => {
    await auditAtBothWidths(browser, async (page, width, audit) => {
      try {
        const email = `walk.late${width}@example.com`;
        const first = await signUp(page, site(), email, `Late ${width}`);
        const welcome = page.url();
        const key = await newDashboardKey(page);
        const dashboard = page.url();
        // Just before their minutes end, both pages still show their key on a reload.
        skew = (SHOWN_ONCE_MINUTES - 1) * 60_000;
        await page.goto(welcome);
        expect((await page.textContent('#new-key'))!.trim()).toBe(first);
        await page.goto(dashboard);
        expect((await page.textContent('#new-key'))!.trim()).toBe(key);
        skew = (SHOWN_ONCE_MINUTES + 1) * 60_000;
        await page.goto(welcome);
        expect(await page.locator('#new-key').count()).toBe(0);
        expect(await page.innerText('main')).toMatch(/This key is no longer shown here: it was shown for 15 minutes[\s\S]*Keys and calendar/);
        await read(page, audit, 'sign-up key gone');
        await page.goto(dashboard);
        expect(await page.locator('#new-key').count()).toBe(0);
        expect(await page.getByRole('status').innerText()).toMatch(/no longer shown: it stays for 15 minutes/);
        await read(page, audit, 'dashboard key gone');
      } finally {
        skew = 0;
      }
    });
  });

  it('/key: one code per request, signed in, a key made once and shown again on reload, then revoked', async () => {
    await auditAtBothWidths(browser, async (page, width, audit) => {
      const left = elsewhere(page);
      const email = `walk.key${width}@example.com`;
      await page.goto(`${pro}/key`);
      await read(page, audit, '/key');
      await page.getByLabel('Email').fill(email);
      await page.getByRole('button', { name: 'Send me a code' }).click();
      await page.getByLabel('Code').waitFor();
      await read(page, audit, '/key code sent');
      await reloadAsAPerson(page);
      await page.getByLabel('Code').waitFor();
      expect(await mailsTo(email)).toBe(1);

      await page.getByLabel('Code').fill(await signInCodeSentTo(t.db, email));
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByText('You have no keys yet.').waitFor();
      await read(page, audit, '/key signed in');
      await reloadAsAPerson(page);
      await page.getByText('You have no keys yet.').waitFor();

      await page.getByRole('button', { name: 'Create a new key' }).click();
      const key = (await page.locator('#new-key').innerText()).trim();
      expect(key).toMatch(/^fdp_[A-Za-z0-9]{32}$/);
      expect(await page.innerText('main')).not.toMatch(/only this once/);
      await read(page, audit, '/key new key');
      await reloadAsAPerson(page);
      expect((await page.locator('#new-key').innerText()).trim()).toBe(key);
      expect(await keysOf(email)).toBe(1);

      await page.getByRole('link', { name: 'Back to your keys' }).click();
      await page.getByRole('button', { name: 'Revoke' }).click();
      await page.getByText('You have no keys yet.').waitFor();
      await reloadAsAPerson(page);
      await page.getByText('You have no keys yet.').waitFor();
      expect(await keysOf(email)).toBe(0);
      expect(left).toEqual([]);
    });
  });

  it("a form's address opened as a page shows the form, never an API's JSON", async () => {
    await auditAtBothWidths(browser, async (page, _width, audit) => {
      for (const path of ['/key/code', '/key/verify', '/key/create', '/signup/code', '/signup/business', '/signup/ready']) {
        const res = await page.goto(`${pro}${path}`);
        expect(res?.headers()['content-type']).toMatch(/text\/html/);
        expect(await page.locator('form, a[href="/dashboard"]').count()).toBeGreaterThan(0);
        await audit(path);
      }
      // The authorization server's steps have no form to go back to: the page says to connect again.
      for (const path of ['/authorize/email', '/authorize/code', '/authorize/consent']) {
        const res = await page.goto(`${pro}${path}`);
        expect(res?.headers()['content-type']).toMatch(/text\/html/);
        expect(await page.getByRole('alert').innerText()).toMatch(/connect again/);
        await audit(path);
      }
      const icon = await page.request.get(`${pro}/favicon.ico`);
      expect(icon.status()).toBe(204);
    });
  });

  it('the API reference fits a phone: nothing wider than the screen but what scrolls inside itself', async () => {
    await auditAtBothWidths(browser, async (page, width, audit) => {
      const left = elsewhere(page);
      await page.goto(`${pro}/docs`);
      await audit('/docs');
      const wide = await page.evaluate(() => {
        const doc = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document;
        return doc.documentElement.scrollWidth - doc.documentElement.clientWidth;
      });
      expect({ width, overflow: wide }).toEqual({ width, overflow: 0 });
      expect(left).toEqual([]);
    });
  });
});
