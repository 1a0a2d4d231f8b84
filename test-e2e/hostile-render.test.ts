import type { Server } from 'node:http';
import { chromium, type Browser, type Page } from 'playwright-core';
import { freePort } from '@frontdesk/db';
import { createTestDatabase, signInCodeSentTo, type TestDatabase } from '@frontdesk/db/testing';
import { closeServer, codeEntryForm, createLogger, emailCodeForm, html, htmlPage, listen } from '@frontdesk/http';
import { createProDeskApp } from '@frontdesk/pro-desk';
import { apiReferenceHtml } from '../packages/http/src/api-reference';
import { codePage, consentPage, emailPage, errorPage } from '../packages/oauth/src/pages';
import { TEST_KEY_SEALER } from '@frontdesk/dev-env/pro-desk';
import { CHROMIUM_ARGS, ensureChromium } from './browser';

// Values people and applications send, rendered by our pages: a script, an attribute break-out,
// a javascript: address, a right-to-left override and a 10 kB string. In a real browser (script
// on, no CSP to help, for the documents rendered here) each must stay text: no dialog, no element
// or handler of its own, no javascript: link or form.
jest.setTimeout(120_000);

const SCRIPT = '<script>alert(1)</script>';
const BREAKOUT = '"><img src=x onerror=alert(1)>';
const JS_URL = 'javascript:alert(1)';
const RTL = 'Maids \u202Egnp.exe';
const LONG = 'w'.repeat(10_000);
const HOSTILE = [SCRIPT, BREAKOUT, JS_URL, RTL, LONG];
const ALL = HOSTILE.join(' ');

const found = ensureChromium();
if ('reason' in found) process.stdout.write(`\nSkipping the hostile render tests: ${found.reason}.\n`);
const maybe = 'path' in found ? describe : describe.skip;

let browser: Browser;

/** Lets the browser send what it would refuse to (the server must judge it, not the page). */
const sendAnything = (page: Page) => page.locator('form').evaluateAll((forms) => forms.forEach((f) => f.setAttribute('novalidate', '')));

/** What a hostile value managed on the page now: dialogs it opened and elements or handlers it made. */
async function damage(page: Page, dialogs: string[]): Promise<string[]> {
  const made = await page.evaluate(() => {
    type El = { tagName: string; attributes: ArrayLike<{ name: string; value: string }> };
    const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<El> } }).document;
    const out: string[] = [];
    for (const el of Array.from(doc.querySelectorAll('*'))) {
      if (['SCRIPT', 'IMG', 'IFRAME', 'OBJECT', 'EMBED'].includes(el.tagName)) out.push(`element ${el.tagName}`);
      for (const a of Array.from(el.attributes)) {
        if (/^on/i.test(a.name)) out.push(`handler ${a.name} on ${el.tagName}`);
        if (['href', 'action', 'src', 'formaction'].includes(a.name) && /^\s*javascript:/i.test(a.value)) out.push(`${a.name}=${a.value}`);
      }
    }
    return out;
  });
  return [...dialogs.map((d) => `dialog ${d}`), ...made];
}

/** Loads a document we rendered, script enabled and no CSP, and answers its damage and its text. */
async function rendered(doc: string): Promise<{ harm: string[]; text: string }> {
  const page = await browser.newPage({ javaScriptEnabled: true });
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await page.setContent(doc, { waitUntil: 'load' });
  await page.waitForTimeout(50);
  const result = { harm: await damage(page, dialogs), text: await page.innerText('body') };
  await page.close();
  return result;
}

const account = { wants: ALL, scopes: { read: SCRIPT, write: BREAKOUT } };
const client = { name: ALL, verified: false, returnsTo: `${BREAKOUT}${JS_URL}` };

/** A document of the OpenAPI shape /docs renders, every text in it hostile. */
const hostileDoc = {
  info: { title: SCRIPT, description: ALL, version: BREAKOUT },
  components: { securitySchemes: { [SCRIPT]: { type: 'http', description: ALL } } },
  paths: {
    [`/api/v1/${BREAKOUT}`]: {
      get: {
        description: ALL,
        parameters: [{ name: SCRIPT, in: 'query', required: true, description: ALL, schema: { type: 'string', pattern: BREAKOUT, enum: [SCRIPT, JS_URL] } }],
        responses: {
          '200': { description: 'ok', content: { 'application/json': { schema: { properties: { [BREAKOUT]: { type: 'string', description: LONG } } } } } },
          '400': { description: SCRIPT },
        },
      },
    },
  },
};

maybe('our pages render hostile values inert (Debian chromium)', () => {
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: (found as { path: string }).path, headless: true, args: CHROMIUM_ARGS });
  });
  afterAll(() => browser?.close());

  it.each([
    ['the OAuth email page of an application with a hostile name and return address', () => emailPage(BREAKOUT, client, account, ALL)],
    ['the OAuth code page', () => codePage(BREAKOUT, ALL, ALL)],
    ['the OAuth consent page', () => consentPage(BREAKOUT, client, { account, email: ALL, scopes: ['read', 'write', SCRIPT] })],
    ['an OAuth error page', () => errorPage(ALL, ALL)],
    ['the API reference (/docs)', () => htmlPage(`${SCRIPT} reference`, apiReferenceHtml(hostileDoc, JS_URL))],
    [
      'the sign-in forms',
      () =>
        htmlPage(
          ALL,
          html`${emailCodeForm({ action: JS_URL, intro: html`${ALL}`, error: ALL, email: BREAKOUT, label: SCRIPT })}
          ${codeEntryForm({ action: JS_URL, email: ALL, back: JS_URL, error: ALL })}`,
        ),
    ],
  ])('%s', async (_what, render) => {
    const { harm, text } = await rendered(render());
    expect(harm).toEqual([]);
    // Each value reached the page, as the text it is.
    for (const value of [SCRIPT, BREAKOUT.trim(), LONG]) expect(text).toContain(value);
  });

  describe('the pages of the pro host, over HTTP', () => {
    let t: TestDatabase;
    let server: Server;
    let pro = '';
    beforeAll(async () => {
      t = await createTestDatabase();
      const port = await freePort();
      pro = `http://127.0.0.1:${port}`;
      const config = { publicUrl: pro, bookingUrl: 'http://127.0.0.1:9', mcpAllowedOrigins: [], keySealer: TEST_KEY_SEALER, checkAnswers: true };
      const app = createProDeskApp({ db: t.db, config, logger: createLogger('hostile', 'silent'), clock: () => new Date() }).app;
      server = await listen(app, port, '127.0.0.1');
    });
    afterAll(async () => {
      await closeServer(server);
      await t.drop();
    });

    async function visit(flow: (page: Page) => Promise<void>): Promise<string[]> {
      const page = await browser.newPage();
      const dialogs: string[] = [];
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      await flow(page);
      const harm = await damage(page, dialogs);
      await page.close();
      return harm;
    }

    it('sign-up: a refused address, and refused details kept as typed', async () => {
      const harm = await visit(async (page) => {
        await page.goto(`${pro}/signup`);
        await page.getByLabel('Your email').fill(BREAKOUT);
        await sendAnything(page);
        await page.getByRole('button', { name: 'Send me a code' }).click();
        await page.getByRole('alert').waitFor();
        expect(await page.getByLabel('Your email').inputValue()).toBe(BREAKOUT);
        const email = `hostile.${Date.now()}@example.com`;
        await page.getByLabel('Your email').fill(email);
        await page.getByRole('button', { name: 'Send me a code' }).click();
        await page.getByLabel('Code from the email').fill(await signInCodeSentTo(t.db, email));
        for (const [label, value] of [
          ['Business name', `${SCRIPT}${LONG}`],
          ['ZIP codes you serve', BREAKOUT],
          ['Website (optional)', JS_URL],
          ['Phone (optional)', RTL],
        ] as const)
          // Set, not typed: typing stops at the field's maxlength, a hostile client does not.
          await page.getByLabel(label).evaluate((el, v) => void ((el as unknown as { value: string }).value = v), value);
        await sendAnything(page);
        await page.getByRole('button', { name: 'Create my business' }).click();
        await page.getByRole('alert').waitFor();
        expect(await page.getByLabel('Business name').inputValue()).toBe(`${SCRIPT}${LONG}`);
        expect(await page.getByLabel('ZIP codes you serve').inputValue()).toBe(BREAKOUT);
      });
      expect(harm).toEqual([]);
    });

    it('sign-up: a name with an RTL override refused and kept as typed; one with markup shown on the page with its key', async () => {
      const harm = await visit(async (page) => {
        const email = `hostile.name.${Date.now()}@example.com`;
        await page.goto(`${pro}/signup`);
        await page.getByLabel('Your email').fill(email);
        await page.getByRole('button', { name: 'Send me a code' }).click();
        const code = await signInCodeSentTo(t.db, email);
        await page.getByLabel('Code from the email').fill(code);
        await page.getByLabel('Business name').fill(`${BREAKOUT}${RTL}`.slice(0, 100));
        await page.getByLabel('ZIP codes you serve').fill('10001');
        await page.getByRole('button', { name: 'Create my business' }).click();
        await page.getByRole('alert').waitFor();
        expect(await page.getByLabel('Business name').inputValue()).toBe(`${BREAKOUT}${RTL}`.slice(0, 100));
        await page.getByLabel('Code from the email').fill(code);
        await page.getByLabel('Business name').fill(BREAKOUT);
        await page.getByRole('button', { name: 'Create my business' }).click();
        await page.locator('#new-key').waitFor();
        expect(await page.innerText('main')).toContain(BREAKOUT.trim());
      });
      expect(harm).toEqual([]);
    });

    it('/key: a refused address kept as typed', async () => {
      const harm = await visit(async (page) => {
        await page.goto(`${pro}/key`);
        await page.getByLabel('Email').fill(`${SCRIPT}${BREAKOUT}`);
        await sendAnything(page);
        await page.getByRole('button', { name: 'Send me a code' }).click();
        await page.getByRole('alert').waitFor();
        expect(await page.getByLabel('Email').inputValue()).toBe(`${SCRIPT}${BREAKOUT}`);
      });
      expect(harm).toEqual([]);
    });
  });
});
