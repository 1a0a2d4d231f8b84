import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { Receiver } from '@frontdesk/dev-env/webhook-receiver';
import { signInCodeSentTo, type TestDatabase } from '@frontdesk/db/testing';
import { ensureChromium } from './browser';
import { startPageHosts, type PageHosts } from './page-hosts';
import { auditAtBothWidths, check, doneSays, reloadAsAPerson, signInToDashboard, signUp, type Audit, type Site } from './page-flows';

// Webhooks on the owner's dashboard, in a real browser at a phone's width and a desk's: one
// added (once refused, as typed) pointing at a real receiver that checks every signature, its
// secret shown once, a test event with what the receiver answered, paused and resumed, then
// removed after a confirmation. Every page is axe-clean and in people's words; a reload after
// each form repeats nothing (the receiver counts what it got).
jest.setTimeout(300_000);

const found = ensureChromium();
if ('reason' in found) process.stdout.write(`\nSkipping the webhooks page tests: ${found.reason}.\n`);
const maybe = 'path' in found ? describe : describe.skip;

let t: TestDatabase;
let browser: Browser;
let hosts: PageHosts | undefined;
let book = '';
let pro = '';

const site = (): Site => ({ pro, book, codeSentTo: (email) => signInCodeSentTo(t.db, email) });

interface Owner {
  page: Page;
  key: string;
  audit: Audit;
  width: number;
  receiver: Receiver;
}

interface WebhookShown {
  webhook_id: string;
  url: string;
  kinds: string[] | null;
  state: string;
}

const webhooks = async (o: Owner): Promise<WebhookShown[]> => {
  const res = await fetch(`${pro}/api/v1/list_webhooks`, { headers: { authorization: `Bearer ${o.key}` } });
  return ((await res.json()) as { webhooks: WebhookShown[] }).webhooks;
};

/** The webhook's entry in the list. */
const entry = (o: Owner) => o.page.locator('li.webhook', { hasText: o.receiver.url });

async function addWebhook(o: Owner) {
  const { page, receiver } = o;
  await page.getByRole('navigation', { name: 'Dashboard sections' }).getByRole('link', { name: 'Webhooks', exact: true }).click();
  await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
  expect(await page.getByText('No webhooks yet.').count()).toBe(1);
  await check(o, '/dashboard/webhooks');

  // Only some events, none ticked: refused, with the address and the choice kept.
  await page.getByLabel('Address of your receiver').fill(receiver.url);
  await page.getByLabel('Only the ticked ones').check();
  await page.getByRole('button', { name: 'Add this webhook' }).click();
  await page.getByRole('alert').waitFor();
  expect(await page.getByRole('alert').textContent()).toBe('Tick at least one kind of event, or choose all events.');
  expect(await page.getByLabel('Address of your receiver').inputValue()).toBe(receiver.url);
  expect(await page.getByLabel('Only the ticked ones').isChecked()).toBe(true);
  await check(o, 'add a webhook refused');

  await page.getByLabel('A job is booked').check();
  await page.getByLabel('A job is cancelled').check();
  await page.getByRole('button', { name: 'Add this webhook' }).click();
  await page.getByRole('status').getByText(`Events will be sent to ${receiver.url}.`).waitFor();
  const secret = (await page.locator('#webhook-secret').innerText()).trim();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  receiver.secrets = [secret];
  await o.audit('a webhook added, with its secret');
  expect(await entry(o).innerText()).toContain('Events: A job is booked · A job is cancelled');
  expect(await webhooks(o)).toMatchObject([{ url: receiver.url, kinds: ['booking.created', 'booking.cancelled'], state: 'active' }]);

  // A reload keeps the sentence but the secret is gone, and nothing was added twice.
  await reloadAsAPerson(page);
  await page.getByText('The secret was shown once and is hidden now.').waitFor();
  expect(await page.locator('#webhook-secret').count()).toBe(0);
  expect(await page.content()).not.toContain(secret);
  await page.getByRole('status').getByText(`Events will be sent to ${receiver.url}.`).waitFor();
  expect(await webhooks(o)).toHaveLength(1);
  await check(o, 'a webhook added, after a reload');
}

async function sendATestEvent(o: Owner) {
  const { page, receiver } = o;
  await entry(o).getByRole('button', { name: 'Send a test event' }).click();
  const outcome = new RegExp(`^Test event sent to ${receiver.url} at .+: delivered\\. The receiver answered 200: it works\\.$`);
  await entry(o).getByRole('status').getByText(outcome).waitFor();
  // The page opens at the webhook, its outcome in view without scrolling or reloading.
  const inView = await entry(o)
    .getByRole('status')
    .evaluate((el) => {
      const r = el.getBoundingClientRect();
      return r.top >= 0 && r.bottom <= (globalThis as unknown as { innerHeight: number }).innerHeight;
    });
  expect(inView).toBe(true);
  await doneSays(o.page, outcome);
  expect(await entry(o).locator('.done blockquote').innerText()).toBe('thanks');
  await check(o, 'a test event sent');
  if (o.width === 375) {
    mkdirSync('/tmp/shots', { recursive: true });
    await page.screenshot({ path: '/tmp/shots/dashboard-webhooks-375.png', fullPage: true });
  }
  // The reload in doneSays sent nothing more.
  expect(receiver.got).toHaveLength(1);
  expect(receiver.got[0]).toMatchObject({ verified: true, body: { kind: 'ping' } });
}

async function pauseAndResume(o: Owner) {
  const { page, receiver } = o;
  await entry(o).getByRole('button', { name: 'Pause' }).click();
  await doneSays(o.page, `Paused ${receiver.url}: events wait here and are sent, in order, when you resume it.`);
  expect(await entry(o).innerText()).toContain('Paused.');
  expect((await webhooks(o))[0]!.state).toBe('paused');
  await check(o, 'a webhook paused');

  await entry(o).getByRole('button', { name: 'Resume' }).click();
  await doneSays(o.page, `Resumed ${receiver.url}: it catches up on what waited, in order.`);
  expect(await entry(o).innerText()).toContain('Sending.');
  expect((await webhooks(o))[0]!.state).toBe('active');
  await page.getByRole('button', { name: 'Pause' }).waitFor();
  expect(receiver.got).toHaveLength(1);
}

async function removeIt(o: Owner) {
  const { page, receiver } = o;
  await entry(o).getByRole('link', { name: 'Remove this webhook' }).click();
  await page.getByRole('heading', { name: 'Remove this webhook?', level: 1 }).waitFor();
  expect(await page.locator('main').innerText()).toContain(`Front Desk stops sending to ${receiver.url} and forgets it.`);
  await check(o, 'remove a webhook');
  await page.getByRole('button', { name: 'Remove this webhook' }).click();
  await doneSays(o.page, `Webhook ${receiver.url} was removed; nothing more is sent there.`);
  expect(await page.getByText('No webhooks yet.').count()).toBe(1);
  expect(await webhooks(o)).toEqual([]);
  await check(o, 'a webhook removed');
  expect(receiver.got).toHaveLength(1);
}

maybe('webhooks on the owner’s dashboard in a real browser', () => {
  beforeAll(async () => {
    hosts = await startPageHosts('hooks', (found as { path: string }).path);
    ({ t, pro, book, browser } = hosts);
  }, 120_000);
  afterAll(() => hosts?.close());

  it('adds a webhook to a real receiver, shows its secret once, sends a test event and shows the answer, pauses, resumes and removes it, at 375 and 1280 px', async () => {
    await auditAtBothWidths(browser, async (page, width, audit) => {
      const email = `hooks${width}@dash.example`;
      const name = `Hooks ${width}`;
      const key = await signUp(page, site(), email, name);
      const receiver = await new Receiver().start();
      try {
        const o: Owner = { page, key, audit, width, receiver };
        await signInToDashboard(page, site(), email, name);
        await addWebhook(o);
        await sendATestEvent(o);
        await pauseAndResume(o);
        await removeIt(o);
      } finally {
        await receiver.stop();
      }
    });
  });
});
