import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Frame, Locator, Page } from 'playwright-core';

// What a person does on the pages, written once for the page tests (pages.test.ts): the flows
// that lead to a page, and axe-core's audit of each page a flow reaches.

const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's violations ("impact:id") in a page or frame where axe is loaded. */
const runAxe = (target: Page | Frame): Promise<string[]> =>
  target.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string }[] }> } }).axe;
    return (await axe.run()).violations.map((v) => `${v.impact}:${v.id}`);
  });

/**
 * axe-core's audit of a frame as it is now (an MCP Apps view in its sandbox): axe is evaluated
 * by the browser's tools, not injected as a script, so the view is audited under its own CSP.
 */
export async function axeInFrame(frame: Frame): Promise<string[]> {
  await frame.evaluate(AXE);
  return runAxe(frame);
}

/** Both hosts under test, and where a sign-in code sent to an address can be read. */
export interface Site {
  pro: string;
  book: string;
  codeSentTo(email: string): Promise<string>;
}

/** Audits the page as it is now, naming it `what` in any violation. */
export type Audit = (what: string) => Promise<void>;

/** A business's owner in a page test: the browser page at a width, its audit, and the business's key. */
export interface Owner {
  page: Page;
  key: string;
  audit: Audit;
  width: number;
}
const noAudit: Audit = async () => {};

/**
 * Runs a page's flow at a phone's width and a desk's, each in a fresh page of the one browser,
 * auditing with axe-core where the flow says, and fails listing every violation by width and page.
 */
export async function auditAtBothWidths(browser: Browser, flow: (page: Page, width: number, audit: Audit) => Promise<void>): Promise<void> {
  const found: string[] = [];
  for (const width of [375, 1280]) {
    // axe is injected as a script, which the pages' CSP rightly refuses: these pages alone bypass it.
    const page = await browser.newPage({ viewport: { width, height: 800 }, bypassCSP: true });
    const audit: Audit = async (what) => {
      await page.addScriptTag({ content: AXE });
      const violations = await runAxe(page);
      found.push(...violations.map((v) => `${width}px ${what}: ${v}`));
    };
    try {
      await flow(page, width, audit);
    } finally {
      await page.close();
    }
  }
  expect(found).toEqual([]);
}

/** Signs a business serving 10001 up on /signup, as its owner would, and returns the key the page shows (signed in to its dashboard). */
export async function signUp(page: Page, site: Site, email: string, name: string): Promise<string> {
  await page.goto(`${site.pro}/signup`);
  await page.getByLabel('Your email').fill(email);
  await page.getByRole('button', { name: 'Send me a code' }).click();
  await page.getByLabel('Code from the email').fill(await site.codeSentTo(email));
  await page.getByLabel('Business name').fill(name);
  await page.getByLabel('ZIP codes you serve').fill('10001');
  await page.getByRole('button', { name: 'Create my business' }).click();
  return (await page.textContent('#new-key'))!.trim();
}

/**
 * Books a business's first open time on its booking page: the time held, then the details,
 * refused once for want of a way to reach the customer; ends on "You are booked".
 */
export async function bookOnThePage(page: Page, site: Site, shopId: string, how: { email: string; audit?: Audit; screenshot?: string }): Promise<void> {
  const audit = how.audit ?? noAudit;
  await page.goto(`${site.book}/book/${shopId}`);
  await audit('booking page');
  await page.goto(`${site.book}/book/${shopId}?bedrooms=2&bathrooms=1`);
  await audit('booking page with times');
  if (how.screenshot) await page.screenshot({ path: join(tmpdir(), how.screenshot), fullPage: true });
  // Nothing is picked for the customer: they choose a time, which is held while they give their details.
  await holdTheTime(page, page.locator('input[name="start"]').first());
  await audit('details step, the time held');
  await page.getByLabel('Your name').fill('Axe Person');
  await page.getByLabel('Street address').fill('1 Axe St');
  await page.getByRole('button', { name: 'Book this cleaning' }).click();
  await page.getByRole('alert').waitFor();
  await audit('booking page error');
  await page.getByLabel('Email').fill(how.email);
  await page.getByRole('button', { name: 'Book this cleaning' }).click();
  await page.getByRole('heading', { name: 'You are booked' }).waitFor();
  await audit('booked');
}

/** Picks the time `choice` on the booking page and holds it: ends on the details step, which says until when it is held. */
export async function holdTheTime(page: Page, choice: Locator): Promise<void> {
  await choice.check();
  await page.getByRole('button', { name: 'Hold this time' }).click();
  await page.locator('#held-until').waitFor();
}

/** The book host's /authorize for a client, as an assistant opens it (PKCE S256). */
export const authorizeUrl = (site: Site, clientId: string, redirectUri: string) =>
  `${site.book}/authorize?client_id=${clientId}&redirect_uri=${encodeURIComponent(redirectUri)}&response_type=code&code_challenge=${'a'.repeat(43)}&code_challenge_method=S256`;

/**
 * The words of an API that must never reach a person's screen: field names with underscores,
 * dotted paths into answers, and list indexes. Fails naming each one found in the visible text.
 */
const API_WORDS = [/\b[a-z]+_[a-z_]*id\b/, /\bmanage_token\b/, /\bseries\.visits\b/, /\bprices\./, /\[\d+\]/, /\b[a-z]+_[a-z]+(?:_[a-z]+)*\b/];
export async function expectPeoplesWords(page: Page, what: string): Promise<void> {
  const text = await page.innerText('body');
  const found = API_WORDS.flatMap((word) => (text.match(new RegExp(word.source, 'g')) ?? []).map((m) => `${what}: "${m}"`));
  expect(found).toEqual([]);
}

/** Reloads the page as a person pressing reload would; a form's page must not ask to send again. */
export async function reloadAsAPerson(page: Page): Promise<void> {
  page.once('dialog', (d) => void d.dismiss());
  await page.reload();
}

/** A page as a person reads it: axe-clean (the flow's audit) and in people's words. */
export async function check(o: { page: Page; audit: Audit }, what: string): Promise<void> {
  await o.audit(what);
  await expectPeoplesWords(o.page, what);
}

/** The sentence a form's result shows, before and after a reload (which must not repeat the form). */
export async function doneSays(page: Page, text: string | RegExp): Promise<void> {
  await page.getByRole('status').getByText(text).waitFor();
  await reloadAsAPerson(page);
  await page.getByRole('status').getByText(text).waitFor();
}

/**
 * Signs the owner at `email` in to the dashboard by the mailed code; ends on the business's
 * heading. A browser signed in already (sign-up signs its owner in) signs out first.
 */
export async function signInToDashboard(page: Page, site: Site, email: string, name: string): Promise<void> {
  await page.goto(`${site.pro}/dashboard`);
  const signOut = page.getByRole('button', { name: 'Sign out' });
  if (await signOut.count()) await signOut.click();
  await page.getByLabel('Business email').fill(email);
  await page.getByRole('button', { name: 'Send me a code' }).click();
  await page.getByLabel('Code').fill(await site.codeSentTo(email));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name, level: 1 }).waitFor();
}
