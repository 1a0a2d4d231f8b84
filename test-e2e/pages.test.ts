import { createBusiness } from '@frontdesk/use-cases';
import { TEST_KEY_SEALER } from '@frontdesk/dev-env/both-hosts';
import { chromium, type Browser } from 'playwright-core';
import * as oauth from 'oauth4webapi';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server } from 'node:http';
import { freePort } from '@frontdesk/db';
import { createTestDatabase, signInCodeSentTo, type TestDatabase } from '@frontdesk/db/testing';
import { DEFAULT_WEEKLY_HOURS } from '@frontdesk/domain';
import { closeServer, createLogger, listen } from '@frontdesk/http';
import { createBookingApp } from '@frontdesk/booking';
import { createProDeskApp } from '@frontdesk/pro-desk';
import { CHROMIUM_ARGS, ensureChromium } from './browser';
import { auditAtBothWidths, authorizeUrl, bookOnThePage, holdTheTime, signInToDashboard, signUp, type Site } from './page-flows';
import { startsOf } from '@frontdesk/domain';

// Processes start and answer slower on a busy machine: limits that fit the work, and every wait is on readiness.
jest.setTimeout(120_000);

// A person in a real browser: the OAuth sign-in and consent pages, the /key page and sign-up.
const found = ensureChromium();
if ('reason' in found) process.stdout.write(`\nSkipping the browser page tests: ${found.reason}.\n`);
const maybe = 'path' in found ? describe : describe.skip;

let t: TestDatabase;
let browser: Browser;
const servers: Server[] = [];
let book = '';
let pro = '';
const redirectUri = 'http://127.0.0.1:9/callback';

const codeSentTo = (email: string) => signInCodeSentTo(t.db, email);
const site = (): Site => ({ pro, book, codeSentTo });

/** A page that records every Content-Security-Policy complaint the browser makes. */
async function watchedPage() {
  const page = await browser.newPage();
  const complaints: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) complaints.push(m.text());
  });
  return { page, complaints };
}

maybe('pages in a real browser (Debian chromium driven by playwright-core)', () => {
  beforeAll(async () => {
    t = await createTestDatabase();
    const [bookPort, proPort] = [await freePort(), await freePort()];
    book = `http://127.0.0.1:${bookPort}`;
    pro = `http://127.0.0.1:${proPort}`;
    const logger = createLogger('pages', 'silent');
    const clock = () => new Date();
    const common = {
      proDeskUrl: pro,
      bookingUrl: book,
      publicSharedKey: 'fdpub_pages_public_key',
      mcpAllowedOrigins: [],
      keySealer: TEST_KEY_SEALER,
      checkAnswers: true,
    };
    servers.push(
      await listen(
        createBookingApp({
          db: t.db,
          config: { ...common, publicUrl: book, publicClientId: 'front-desk', publicClientRedirectUris: [redirectUri] },
          logger,
          clock,
        }).app,
        bookPort,
        '127.0.0.1',
      ),
    );
    servers.push(await listen(createProDeskApp({ db: t.db, config: { ...common, publicUrl: pro }, logger, clock }).app, proPort, '127.0.0.1'));
    // playwright gives each launch a fresh, empty profile of its own.
    browser = await chromium.launch({ executablePath: (found as { path: string }).path, headless: true, args: CHROMIUM_ARGS });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await Promise.all(servers.map(closeServer));
    await t?.drop();
  });

  it('signs in with the emailed code, shows the consent naming the client and scopes, and returns a code', async () => {
    const verifier = oauth.generateRandomCodeVerifier();
    const url = new URL(`${book}/authorize`);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: 'front-desk',
      redirect_uri: redirectUri,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: 'browser-state',
    }).toString();
    const { page, complaints } = await watchedPage();
    let landed: URL | undefined;
    await page.route(`${redirectUri}**`, async (route) => {
      landed = new URL(route.request().url());
      await route.fulfill({ contentType: 'text/html', body: '<p>Back in the assistant.</p>' });
    });
    await page.goto(url.href);
    await page.getByLabel('Email').fill('robin@example.com');
    await page.getByRole('button', { name: 'Send me a code' }).click();
    await page.getByLabel('Code').fill(await codeSentTo('robin@example.com'));
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Allow Front Desk?' }).waitFor();
    const consent = await page.textContent('body');
    expect(consent).toMatch(/Signed in as robin@example\.com/);
    expect(consent).toMatch(/book cleanings and cancel your bookings for you \(write\)/);
    await page.screenshot({ path: join(tmpdir(), 'front-desk-consent.png') });
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL(`${redirectUri}**`);
    expect(landed?.searchParams.get('state')).toBe('browser-state');
    expect(landed?.searchParams.get('iss')).toBe(book);
    const code = landed?.searchParams.get('code');
    const tokens = await fetch(`${book}/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'authorization_code', client_id: 'front-desk', code: code!, redirect_uri: redirectUri, code_verifier: verifier }),
    });
    expect(tokens.status).toBe(200);
    // The style sheet, the forms and the redirect back to the client all passed the CSP.
    expect(complaints).toEqual([]);
    await page.close();
  });

  it('gets a personal key on the /key page and revokes it', async () => {
    const { page, complaints } = await watchedPage();
    await page.goto(`${pro}/key`);
    await page.getByLabel('Email').fill('sam@example.com');
    await page.getByRole('button', { name: 'Send me a code' }).click();
    await page.getByLabel('Code').fill(await codeSentTo('sam@example.com'));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('You have no keys yet.').waitFor();
    await page.getByRole('button', { name: 'Create a new key' }).click();
    const key = (await page.textContent('#new-key'))!.trim();
    expect(key).toMatch(/^fdp_[A-Za-z0-9]{32}$/);
    await page.screenshot({ path: join(tmpdir(), 'front-desk-key.png') });
    const works = await fetch(`${book}/api/v1/my_bookings`, { headers: { authorization: `Bearer ${key}` } });
    expect(works.status).toBe(200);
    await page.getByRole('link', { name: 'Back to your keys' }).click();
    await page.getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('You have no keys yet.').waitFor();
    expect((await fetch(`${book}/api/v1/my_bookings`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(401);
    expect(complaints).toEqual([]);
    await page.close();
  });

  it('signs a business up on /signup, with a typo shown on the page, and its key works at once', async () => {
    const { page, complaints } = await watchedPage();
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto(`${pro}/signup`);
    await page.getByLabel('Your email').fill('owner@maple.example');
    await page.getByRole('button', { name: 'Send me a code' }).click();
    await page.getByLabel('Code from the email').fill(await codeSentTo('owner@maple.example'));
    await page.getByLabel('Business name').fill('Maple Street Maids');
    await page.getByLabel('Time zone').selectOption('America/Chicago');
    await page.getByLabel('ZIP codes you serve').fill('60601, 6060');
    await page.getByRole('button', { name: 'Create my business' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.textContent('[role=alert]')).toMatch(/not: 6060/);
    // The details stay filled in; the code was not spent.
    expect(await page.getByLabel('Business name').inputValue()).toBe('Maple Street Maids');
    expect(await page.getByLabel('Time zone').inputValue()).toBe('America/Chicago');
    await page.getByLabel('Code from the email').fill(await codeSentTo('owner@maple.example'));
    await page.getByLabel('ZIP codes you serve').fill('60601, 60602');
    await page.getByRole('button', { name: 'Create my business' }).click();
    const key = (await page.textContent('#new-key'))!.trim();
    expect(key).toMatch(/^fdk_[A-Za-z0-9]{32}$/);
    await page.screenshot({ path: join(tmpdir(), 'front-desk-signed-up-375.png'), fullPage: true });
    const res = await fetch(`${pro}/api/v1/my_business`, { headers: { authorization: `Bearer ${key}` } });
    expect(await res.json()).toMatchObject({ name: 'Maple Street Maids', timezone: 'America/Chicago', service_zips: ['60601', '60602'] });
    expect(complaints).toEqual([]);
    await page.close();
  });

  it('runs a business from its dashboard: hours and prices through the forms, a customer booking with its notification, a new key', async () => {
    const { page, complaints } = await watchedPage();
    const email = 'dash@maple.example';
    // Signed up, as a new business would be.
    const key = await signUp(page, site(), email, 'Dash Cleaning');
    const api = (path: string, k = key) => fetch(`${pro}/api/v1/${path}`, { headers: { authorization: `Bearer ${k}` } });

    // Signed up is signed in: the dashboard asks for no second code.
    await page.goto(`${pro}/dashboard`);
    await page.getByRole('heading', { name: 'Dash Cleaning' }).waitFor();

    await page.goto(`${pro}/dashboard/settings/hours`);
    await page.getByLabel('Saturday').fill('');
    await page.getByRole('button', { name: 'Save hours' }).click();
    await page.getByText('Saved your working hours.').waitFor();
    await page.goto(`${pro}/dashboard/settings/prices`);
    await page.getByLabel('Base, USD').fill('80');
    await page.getByRole('button', { name: 'Save prices' }).click();
    await page.getByText('Saved your prices.').waitFor();
    const quote = (await (await api('quote_job?bedrooms=2&bathrooms=1')).json()) as { total: number };
    expect(quote.total).toBe(145);
    const open = startsOf(((await (await api('open_times?bedrooms=2&bathrooms=1&days=14')).json()) as { open_times: { starts: string[] }[] }).open_times);
    expect(open.length).toBeGreaterThan(0);
    expect(open.filter((t) => new Date(t).getUTCDay() === 6)).toEqual([]);

    // A customer's assistant books on the book host.
    const proId = ((await (await api('my_business')).json()) as { pro_id: string }).pro_id;
    const booked = await fetch(`${book}/api/v1/book_cleaning`, {
      method: 'POST',
      headers: { authorization: 'Bearer fdpub_pages_public_key', 'content-type': 'application/json', 'x-client-name': 'ChatGPT' },
      body: JSON.stringify({
        cleaner_id: proId,
        start: open[0]!,
        bedrooms: 2,
        bathrooms: 1,
        customer_name: 'Rosa Diaz',
        customer_phone: '(212) 555-0177',
        address: '9 Elm St',
        zip: '10001',
      }),
    });
    expect(booked.status).toBe(200);
    await page.goto(`${pro}/dashboard`);
    expect(await page.textContent('body')).toMatch(/New \(1\)[\s\S]*ChatGPT[\s\S]*Rosa Diaz/);
    await page.screenshot({ path: join(tmpdir(), 'front-desk-dashboard.png'), fullPage: true });
    await page.goto(`${pro}/dashboard/schedule`);
    expect(await page.textContent('body')).toMatch(/Rosa Diaz[\s\S]*9 Elm St, 10001/);

    await page.goto(`${pro}/dashboard/keys`);
    await page.getByRole('link', { name: 'Make a new key' }).click();
    await page.getByRole('button', { name: 'Stop the old key and make a new one' }).click();
    const fresh = (await page.textContent('#new-key'))!.trim();
    expect((await api('my_business')).status).toBe(401);
    expect((await api('my_business', fresh)).status).toBe(200);
    expect(complaints).toEqual([]);
    await page.close();
  });

  it("books through a business's booking page, lets the customer cancel on the manage page, and refuses a time taken meanwhile", async () => {
    const { page, complaints } = await watchedPage();
    const elsewhere: string[] = [];
    page.on('request', (r) => {
      if (![new URL(book).origin, new URL(pro).origin].includes(new URL(r.url()).origin)) elsewhere.push(r.url());
    });
    const { pro: business, apiKey } = await createBusiness(t.db, {
      name: 'Page Maids',
      timezone: 'America/New_York',
      service_zips: ['10001'],
      weekly_hours: DEFAULT_WEEKLY_HOURS,
    });
    const proApi = async (path: string) =>
      (await (await fetch(`${pro}/api/v1/${path}`, { headers: { authorization: `Bearer ${apiKey}` } })).json()) as Record<string, any>;
    const link = (await proApi('my_business')).booking_page as string;
    expect(link).toBe(`${book}/book/${business.id}`);

    await page.setViewportSize({ width: 375, height: 800 });
    const first = await page.goto(link);
    expect((await first!.body()).length).toBeLessThan(100_000);
    await page.getByLabel('Bedrooms').selectOption('3');
    await page.getByLabel('Bathrooms').selectOption('2');
    await page.getByLabel(/Inside the oven/).check();
    await page.getByRole('button', { name: 'See the price and open times' }).click();
    await page.getByRole('heading', { name: /Your price: \$/ }).waitFor();
    await page.screenshot({ path: join(tmpdir(), 'front-desk-booking-page-375.png'), fullPage: true });
    const radios = page.locator('input[name="start"]');
    const firstStart = await radios.nth(0).getAttribute('value');
    // Another customer takes the first time while this one fills in the form.
    const taken = await fetch(`${book}/api/v1/book_cleaning`, {
      method: 'POST',
      headers: { authorization: 'Bearer fdpub_pages_public_key', 'content-type': 'application/json' },
      body: JSON.stringify({
        cleaner_id: business.id,
        start: firstStart,
        bedrooms: 1,
        bathrooms: 1,
        customer_name: 'Quick',
        customer_email: 'quick@example.com',
        address: '1 Fast Ln',
        zip: '10001',
      }),
    });
    expect(taken.status).toBe(200);
    // Picking it holds it, or here says it was just taken, with fresh times.
    await radios.nth(0).check();
    await page.getByRole('button', { name: 'Hold this time' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.locator(`input[name="start"][value="${firstStart}"]`).count()).toBe(0);
    const chosen = await page.locator('input[name="start"]').nth(0).getAttribute('value');
    await holdTheTime(page, page.locator('input[name="start"]').nth(0));
    await page.getByLabel('Your name').fill('Rosa Diaz');
    await page.getByLabel('Phone').fill('(212) 555-0177');
    await page.getByLabel('Street address').fill('9 Elm St');
    await page.getByRole('button', { name: 'Book this cleaning' }).click();
    await page.getByRole('heading', { name: 'You are booked' }).waitFor();

    const schedule = await proApi('schedule');
    const mine = (schedule.jobs as Record<string, any>[]).find((j) => j.customer.name === 'Rosa Diaz')!;
    expect(mine).toMatchObject({ channel: 'book', client_name: 'the booking page', start: chosen, fee: 5 });
    const events = (await proApi('updates')).events as Record<string, any>[];
    expect(events.some((e) => e.kind === 'booking.created' && e.client_name === 'the booking page')).toBe(true);

    await page.locator('#manage-link').click();
    await page.getByText('This cleaning is booked.').waitFor();
    await page.screenshot({ path: join(tmpdir(), 'front-desk-manage-375.png'), fullPage: true });
    await page.getByRole('button', { name: 'Cancel this cleaning' }).click();
    await page.getByRole('button', { name: 'Yes, cancel it' }).click();
    await page.getByText(/This cleaning is cancelled/).waitFor();
    const after = await proApi('updates');
    expect((after.events as Record<string, any>[]).some((e) => e.kind === 'booking.cancelled' && e.booking_id === mine.booking_id)).toBe(true);
    expect(elsewhere).toEqual([]);
    expect(complaints).toEqual([]);
    await page.close();
  });

  // One test per page, each at a phone's width and a desk's, so a violation names its page.
  describe('has no axe-core violation at phone and desktop widths on', () => {
    it('the sign-up page: the form, the code step, a refusal, and the new key', async () => {
      await auditAtBothWidths(browser, async (page, width, audit) => {
        const email = `signup${width}@example.com`;
        await page.goto(`${pro}/signup`);
        await audit('/signup');
        await page.getByLabel('Your email').fill(email);
        await page.getByRole('button', { name: 'Send me a code' }).click();
        await page.getByLabel('Business name').waitFor();
        await audit('/signup details');
        await page.screenshot({ path: join(tmpdir(), `front-desk-signup-${width}.png`), fullPage: true });
        await page.getByLabel('Code from the email').fill('000000');
        await page.getByLabel('Business name').fill('Axe Cleaning');
        await page.getByLabel('ZIP codes you serve').fill('123');
        await page.getByRole('button', { name: 'Create my business' }).click();
        await page.getByRole('alert').waitFor();
        await audit('/signup error');
        // The code the wrong guess left unspent, and ZIPs that are ZIPs.
        await page.getByLabel('Code from the email').fill(await codeSentTo(email));
        await page.getByLabel('ZIP codes you serve').fill('10001');
        await page.getByRole('button', { name: 'Create my business' }).click();
        await page.locator('#new-key').waitFor();
        await audit('/signup done');
      });
    });

    it('the dashboard: its sign-in, the week, a refusal, and the calendar address made', async () => {
      await auditAtBothWidths(browser, async (page, width, audit) => {
        await page.goto(`${pro}/dashboard`);
        await audit('/dashboard sign-in');
        const owner = `axe-owner${width}@example.com`;
        await signUp(page, site(), owner, `Axe ${width}`);
        await signInToDashboard(page, site(), owner, `Axe ${width}`);
        await audit('/dashboard');
        await page.screenshot({ path: join(tmpdir(), `front-desk-dashboard-${width}.png`), fullPage: true });
        await page.goto(`${pro}/dashboard/settings/prices`);
        await page.getByLabel('Base, USD').fill('99999');
        await page.getByRole('button', { name: 'Save prices' }).click();
        await page.getByRole('alert').waitFor();
        await audit('/dashboard error');
        await page.goto(`${pro}/dashboard/keys`);
        await page.getByRole('button', { name: 'Make my calendar address' }).click();
        await page.locator('#calendar-url').waitFor();
        await audit('/dashboard calendar made');
      });
    });

    it.each([
      ['the front doors of both hosts', '/'],
      ['the API references of both hosts', '/docs'],
    ])('%s', async (_name, path) => {
      await auditAtBothWidths(browser, async (page, _width, audit) => {
        for (const host of [pro, book]) {
          await page.goto(`${host}${path}`);
          await audit(`${host === pro ? 'pro' : 'book'} ${path}`);
        }
      });
    });

    it('the search for cleaners', async () => {
      await auditAtBothWidths(browser, async (page, width, audit) => {
        await shopFor(width);
        await page.goto(`${book}/find?zip=10001&bedrooms=2&bathrooms=1`);
        await audit('book /find');
      });
    });

    it("a business's booking page: the choices, the open times, a refusal, and booked", async () => {
      await auditAtBothWidths(browser, async (page, width, audit) => {
        const email = `axe-customer${width}@example.com`;
        await bookOnThePage(page, site(), await shopFor(width), { email, audit, screenshot: `front-desk-booking-${width}.png` });
      });
    });

    it('the manage page: the booking, its move page, and the cancel confirmation', async () => {
      await auditAtBothWidths(browser, async (page, width, audit) => {
        await bookOnThePage(page, site(), await shopFor(width), { email: `axe-manager${width}@example.com` });
        await page.locator('#manage-link').click();
        await audit('manage page');
        const manageUrl = page.url();
        await page.goto(`${manageUrl}/move`);
        await audit('move page');
        await page.goto(manageUrl);
        await page.screenshot({ path: join(tmpdir(), `front-desk-manage-${width}.png`), fullPage: true });
        await page.getByRole('button', { name: 'Cancel this cleaning' }).click();
        await audit('cancel confirmation');
      });
    });

    it('the /key page and its code step', async () => {
      await auditAtBothWidths(browser, async (page, width, audit) => {
        await page.goto(`${pro}/key`);
        await audit('/key');
        await page.getByLabel('Email').fill(`axe${width}@example.com`);
        await page.getByRole('button', { name: 'Send me a code' }).click();
        await page.getByLabel('Code').waitFor();
        await audit('/key code');
      });
    });

    it('the sign-in of the authorization server: for our client, an unknown one, and an unverified one', async () => {
      await auditAtBothWidths(browser, async (page, _width, audit) => {
        await page.goto(authorizeUrl(site(), 'front-desk', redirectUri));
        await audit('/authorize');
        await page.goto(`${book}/authorize?client_id=nobody`);
        await audit('/authorize error');
        await page.goto(authorizeUrl(site(), await unverifiedClient(), redirectUri));
        await audit('/authorize, unverified client');
      });
    });

    it('the consent page of an unverified client, naming where the code goes', async () => {
      await auditAtBothWidths(browser, async (page, width, audit) => {
        await page.goto(authorizeUrl(site(), await unverifiedClient(), redirectUri));
        const email = `consent${width}@example.com`;
        await page.getByLabel('Email').fill(email);
        await page.getByRole('button', { name: 'Send me a code' }).click();
        await page.getByLabel('Code').fill(await codeSentTo(email));
        await page.getByRole('button', { name: 'Continue' }).click();
        await page.getByRole('heading', { name: 'Allow Claude?' }).waitFor();
        expect(await page.textContent('body')).toMatch(/unverified application[\s\S]*the answer goes to 127\.0\.0\.1:9/);
        await page.screenshot({ path: join(tmpdir(), `front-desk-consent-unverified-${width}.png`), fullPage: true });
        await audit('consent, unverified client');
      });
    });
  });
});

const shops = new Map<number, Promise<string>>();
/** One business serving 10001 per width, made once, for the search, booking and manage pages. */
function shopFor(width: number): Promise<string> {
  const made =
    shops.get(width) ??
    createBusiness(t.db, { name: `Axe Maids ${width}`, timezone: 'America/New_York', service_zips: ['10001'], weekly_hours: DEFAULT_WEEKLY_HOURS }).then(
      (r) => r.pro.id,
    );
  shops.set(width, made);
  return made;
}

let registered: Promise<string> | undefined;
/** A client registered as "Claude" (RFC 7591), once: its sign-in and consent mark it unverified. */
function unverifiedClient(): Promise<string> {
  registered ??= fetch(`${book}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Claude', redirect_uris: [redirectUri] }),
  })
    .then((res) => res.json())
    .then((body) => (body as { client_id: string }).client_id);
  return registered;
}
