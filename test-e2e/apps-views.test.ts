import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import * as esbuild from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { createBusiness } from '@frontdesk/use-cases';
import type { TestDatabase } from '@frontdesk/db/testing';
import { DEFAULT_WEEKLY_HOURS, FREE_CANCEL_HOURS, FREE_CANCEL_TEXT, MOVE_FREE_TEXT, ON_MY_WAY_ETA_LABEL, moveLate, onMyWayWillEmail } from '@frontdesk/domain';
import { closeServer } from '@frontdesk/http';
import { ensureChromium } from './browser';
import { startPageHosts, type PageHosts } from './page-hosts';
import { axeInFrame as axeIn } from './page-flows';

// The book host's MCP Apps views as a person uses them inside an assistant: a test host built on
// the official ext-apps AppBridge, in Chromium, connected over MCP (the official client in the
// page, relayed by this test to the running book host with the user's credential) calls
// find_cleaners, reads the view it links and shows it in a sandboxed frame under the declared
// CSP; Playwright picks a time, sees the hold, confirms, books, and moves and cancels from the booking view.
jest.setTimeout(240_000);

const found = ensureChromium();
if ('reason' in found) process.stdout.write(`\nSkipping the MCP Apps view tests: ${found.reason}.\n`);
const maybe = 'path' in found ? describe : describe.skip;

/** The book host's shared key, as startPageHosts names it. */
const PUBLIC = 'fdpub_apps_views_public_key';
const USER = { 'x-user-name': 'Sam Lee', 'x-user-email': 'sam@example.com' };

let hosts: PageHosts;
let t: TestDatabase;
let browser: Browser;
const servers: Server[] = [];
let book = '';
let pro = '';
let host = '';
/** The business key the test host holds for the pro host (set by the test that needs it). */
let proKey = '';
/** The MCP messages the test host relayed, by method: what went through the bridge to the book host. */
const relayed: string[] = [];

/** The test host's page: the host script (AppBridge and the MCP client) bundled in, and a conversation to show a view in. */
async function hostPage(): Promise<string> {
  const out = await esbuild.build({
    entryPoints: [path.join(__dirname, '..', 'views', 'test-host.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    write: false,
    logLevel: 'error',
  });
  const script = out.outputFiles[0]!.text.replace(/<\/script/gi, '<\\/script');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test host</title>
<style>iframe{width:100%;border:1px solid #999;min-height:420px}</style></head>
<body><main><h1>Assistant</h1><div id="conversation"></div></main><script>${script}</script></body></html>`;
}

/** The test host's server: its page, and /mcp relayed to the book host with the user's shared key and details, /mcp/pro to the pro host with the business's key (the view never holds them). */
async function startHost(): Promise<Server> {
  const page = await hostPage();
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url?.split('?')[0] === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
      return;
    }
    if (req.method === 'POST' && (req.url === '/mcp' || req.url === '/mcp/pro')) {
      const toPro = req.url === '/mcp/pro';
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        relayed.push(String((JSON.parse(body) as { method?: string }).method));
        const pass = ['content-type', 'accept', 'mcp-protocol-version', 'mcp-method', 'mcp-name'];
        const headers: Record<string, string> = toPro ? { authorization: `Bearer ${proKey}` } : { authorization: `Bearer ${PUBLIC}`, ...USER };
        for (const h of pass) if (typeof req.headers[h] === 'string') headers[h] = req.headers[h];
        void fetch(`${toPro ? pro : book}/mcp`, { method: 'POST', headers, body }).then(async (r) => {
          res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' }).end(await r.text());
        });
      });
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return server;
}

interface Shown {
  tools: string[];
  uri: string;
  declaredCsp: { connectDomains?: string[]; resourceDomains?: string[] };
  frameCsp: string;
}

/** Opens the test host, has it call `tool` and show the view it links; the page, the view's frame, and every request the page made. */
async function showTool(tool: string, args: Record<string, unknown>, o: { width?: number; server?: 'pro' } = {}) {
  const width = o.width ?? 375;
  const page: Page = await browser.newPage({ viewport: { width, height: 900 } });
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(o.server === 'pro' ? `${host}/?mcp=/mcp/pro` : host);
  const shown = await page.evaluate(([name, a]) => (globalThis as unknown as { showTool(n: string, a: unknown): Promise<Shown> }).showTool(name, a), [
    tool,
    args,
  ] as const);
  const view = page.frameLocator('#view');
  await view.locator('h1, h2').first().waitFor();
  const frame = page.frames().find((f) => f !== page.mainFrame())!;
  return { page, view, frame, shown, requests, errors };
}

const bookedOf = (cleaner: string) => t.db.selectFrom('bookings').select(['id', 'status', 'customer_name']).where('pro_id', '=', cleaner).execute();

maybe('MCP Apps views in a test host on the official AppBridge', () => {
  beforeAll(async () => {
    // Both hosts and Chromium as every page test starts them; this test's own server is the assistant's host.
    hosts = await startPageHosts('apps_views', (found as { path: string }).path);
    ({ t, browser, book, pro } = hosts);
    servers.push(await startHost());
  }, 120_000);
  afterAll(async () => {
    await Promise.all(servers.map(closeServer));
    await hosts?.close();
  });

  it('offers view: picks a time (held), confirms once, books; the booking is on the schedule; moves and cancels from the booking view', async () => {
    const { pro: shop, apiKey } = await createBusiness(t.db, {
      name: 'Sparkle Views',
      timezone: 'America/New_York',
      service_zips: ['10001'],
      weekly_hours: DEFAULT_WEEKLY_HOURS,
    });
    const { page, view, frame, shown, requests, errors } = await showTool('find_cleaners', { zip: '10001', bedrooms: 2, bathrooms: 1 });

    expect(shown.tools).toContain('find_cleaners');
    expect(shown.uri).toBe('ui://booking/offers.html');
    expect(shown.declaredCsp).toEqual({ connectDomains: [], resourceDomains: [] });
    expect(shown.frameCsp).toContain("connect-src 'none'");
    expect(await page.locator('#view').getAttribute('sandbox')).toBe('allow-scripts allow-forms');

    // The offer: the firm total, the checks note, times by day as buttons.
    await view.getByRole('heading', { name: /^Sparkle Views: \$\d+\.\d\d$/ }).waitFor();
    await view.getByText(/Best-effort checks/).waitFor();
    expect(await view.getByRole('group').count()).toBeGreaterThan(0);
    expect(await axeIn(frame)).toEqual([]);
    mkdirSync(path.join(__dirname, '..', 'docs'), { recursive: true });
    await page.screenshot({ path: path.join(__dirname, '..', 'docs', 'mcp-apps-offers.png'), fullPage: true });

    // Pick the first time: it is held (the database says so), and the view says until when.
    const first = view.getByRole('button', { name: /^Hold .* with Sparkle Views$/ }).first();
    const label = (await first.getAttribute('aria-label'))!.replace(/^Hold (.*) with Sparkle Views$/, '$1');
    await first.click();
    await view.getByText(new RegExp(`is held for you until`)).waitFor();
    const holds = await t.db.selectFrom('holds').select(['id']).where('pro_id', '=', shop.id).where('released_at', 'is', null).execute();
    expect(holds).toHaveLength(1);
    expect(await axeIn(frame)).toEqual([]);

    await view.getByLabel('Your name').fill('Sam Lee');
    await view.getByLabel('Email').fill('sam@example.com');
    await view.getByLabel('Street address').fill('40 W 20th St');
    expect(await view.getByLabel('ZIP code').inputValue()).toBe('10001');
    await view.getByRole('button', { name: 'Review the booking' }).click();

    // The one confirmation: cleaner, time, address, price.
    await view.getByRole('heading', { name: 'Book this cleaning?' }).waitFor();
    const confirmation = await view.locator('dl').innerText();
    for (const said of ['Sparkle Views', label, '40 W 20th St, 10001', '$']) expect(confirmation).toContain(said);
    expect(await bookedOf(shop.id)).toHaveLength(0);
    expect(await axeIn(frame)).toEqual([]);
    await view.getByRole('button', { name: 'Book it' }).click();

    await view.getByRole('heading', { name: `Booked: ${label} with Sparkle Views` }).waitFor();
    expect(await axeIn(frame)).toEqual([]);
    // On the business's schedule, as the owner reads it.
    const schedule = (await (await fetch(`${pro}/api/v1/schedule`, { headers: { authorization: `Bearer ${apiKey}` } })).json()) as {
      jobs: { label: string; address: string; customer: { name: string } }[];
    };
    expect(schedule.jobs.map((j) => [j.label, j.address, j.customer.name])).toEqual([[label, '40 W 20th St', 'Sam Lee']]);

    // The manage link and the .ics go to the host, never fetched by the view.
    await view.getByRole('link', { name: 'See, move or cancel your booking' }).click();
    await view.getByRole('button', { name: 'Add it to your calendar (.ics)' }).click();
    const asked = await page.evaluate(() => (globalThis as unknown as { hostState: { openedLinks: string[]; downloads: unknown[] } }).hostState);
    expect(asked.openedLinks).toEqual([expect.stringMatching(new RegExp(`^${book}/manage/[\\w-]{43}$`))]);
    expect(asked.downloads).toEqual([
      { contents: [{ type: 'resource_link', uri: `${asked.openedLinks[0]}/booking.ics`, name: 'cleaning.ics', mimeType: 'text/calendar' }] },
    ]);

    // Move: the cleaner's other open times (reschedule_booking through the bridge), one
    // confirmation naming both times and stating the 24-hour rule, then the booking at its new time.
    const startOf = async () => (await t.db.selectFrom('bookings').select('starts_at').where('pro_id', '=', shop.id).executeTakeFirstOrThrow()).starts_at;
    const before = await startOf();
    await view.getByRole('button', { name: 'Move this cleaning' }).click();
    await view.getByRole('heading', { name: `Move ${label} with Sparkle Views` }).waitFor();
    expect(await view.getByRole('button', { name: `Move to ${label}` }).count()).toBe(0);
    expect(await axeIn(frame)).toEqual([]);
    const to = view.getByRole('button', { name: /^Move to / }).first();
    const moved = (await to.getAttribute('aria-label'))!.replace(/^Move to /, '');
    await to.click();
    await view.getByRole('heading', { name: `Move to ${moved}?` }).waitFor();
    const rule = (await view.locator('main p.note, main p.error').innerText()).trim();
    expect([MOVE_FREE_TEXT, moveLate('Sparkle Views')]).toContain(rule);
    expect(rule).toContain(`${FREE_CANCEL_HOURS} hours`);
    expect(await view.locator('dl').innerText()).toContain(`${label} with Sparkle Views`);
    expect(await startOf()).toEqual(before);
    expect(await axeIn(frame)).toEqual([]);
    await view.getByRole('button', { name: 'Yes, move it' }).click();
    await view.getByRole('heading', { name: `Booked: ${moved} with Sparkle Views` }).waitFor();
    await view
      .getByRole('status')
      .getByText(/^Moved /)
      .waitFor();
    expect(await startOf()).not.toEqual(before);
    expect(await axeIn(frame)).toEqual([]);

    // Cancel: a confirmation stating the 24-hour rule, then cancelled.
    await view.getByRole('button', { name: 'Cancel this cleaning' }).click();
    await view.getByText(FREE_CANCEL_TEXT).waitFor();
    expect(await axeIn(frame)).toEqual([]);
    await view.getByRole('button', { name: 'Yes, cancel it' }).click();
    await view.getByRole('heading', { name: `Cancelled: ${moved} with Sparkle Views` }).waitFor();
    expect((await bookedOf(shop.id)).map((b) => b.status)).toEqual(['cancelled']);

    // Nothing left the host page's origin: the view's calls went through the bridge, relayed as MCP.
    expect(requests.filter((u) => new URL(u).origin !== host && !u.startsWith('about:') && !u.startsWith('data:'))).toEqual([]);
    expect(relayed).toEqual(expect.arrayContaining(['tools/list', 'tools/call', 'resources/read']));
    expect(errors).toEqual([]);
    await page.close();
  });
  it("day view (schedule on the pro host): today's and tomorrow's jobs per crew, and On my way sent from it", async () => {
    // A zone where it is daytime now, open all week, so a job of today is still ahead.
    const zones = ['Pacific/Auckland', 'Asia/Tokyo', 'Asia/Kolkata', 'Europe/Berlin', 'America/New_York', 'America/Los_Angeles', 'Pacific/Honolulu'];
    const hourIn = (zone: string) => +new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: 'numeric', hourCycle: 'h23' }).format(new Date());
    const timezone = zones.find((z) => hourIn(z) >= 5 && hourIn(z) <= 15)!;
    const allDay = Object.fromEntries(['1', '2', '3', '4', '5', '6', '7'].map((d) => [d, [{ start: '00:00', end: '23:59' }]]));
    const made = await createBusiness(t.db, { name: 'Day Crew', timezone, service_zips: ['10001'], weekly_hours: allDay });
    proKey = made.apiKey;
    // Today's job is booked by the owner (customers book from tomorrow on), tomorrow's by a customer.
    const notice = await fetch(`${pro}/api/v1/update_business`, {
      method: 'POST',
      headers: { authorization: `Bearer ${made.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ min_notice_hours: 0 }),
    });
    expect(notice.status).toBe(200);
    const local = (d: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(d);
    const later = String(hourIn(timezone) + 2).padStart(2, '0');
    const bookings = [
      { via: `${pro}/api/v1/book_job`, key: made.apiKey, start: `${local(new Date())}T${later}:00` },
      { via: `${book}/api/v1/book_cleaning`, key: PUBLIC, start: `${local(new Date(Date.now() + 86_400_000))}T09:00`, cleaner_id: made.pro.id },
    ];
    for (const [i, b] of bookings.entries()) {
      const res = await fetch(b.via, {
        method: 'POST',
        headers: { authorization: `Bearer ${b.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          ...(b.cleaner_id ? { cleaner_id: b.cleaner_id } : {}),
          start: b.start,
          bedrooms: 1,
          bathrooms: 1,
          customer_name: `Kim ${i}`,
          customer_email: `kim${i}@example.com`,
          address: `${i + 1} Elm St`,
          zip: '10001',
          ...(b.cleaner_id ? { access_details: 'Key under the mat' } : { notes: 'Key under the mat' }),
        }),
      });
      expect([b.via, res.status, res.status === 200 ? '' : await res.text()]).toEqual([b.via, 200, '']);
    }
    const { page, view, frame, shown, requests, errors } = await showTool('schedule', {}, { server: 'pro' });
    expect(shown.uri).toBe('ui://pro-desk/day.html');
    await view.getByRole('heading', { name: 'Today and tomorrow' }).waitFor();
    expect(await view.getByRole('heading', { name: /^Today, / }).count()).toBe(1);
    expect(await view.getByRole('heading', { name: /^Tomorrow, / }).count()).toBe(1);
    expect(await view.getByRole('heading', { name: 'Day Crew', level: 3 }).count()).toBe(2);
    expect(await view.getByText('Access: Key under the mat').count()).toBe(1);
    expect(await view.getByText('Notes: Key under the mat').count()).toBe(1);
    expect(await view.getByText('1 Elm St, 10001').count()).toBe(1);
    expect(await axeIn(frame)).toEqual([]);

    // On my way: only today's job offers it; a confirmation, then sent once.
    expect(await view.getByRole('button', { name: 'On my way' }).count()).toBe(1);
    await view.getByRole('button', { name: 'On my way' }).click();
    await view.getByText(onMyWayWillEmail('Kim 0').join('')).waitFor();
    await view.getByLabel(ON_MY_WAY_ETA_LABEL).fill('20');
    expect(await axeIn(frame)).toEqual([]);
    await view.getByRole('button', { name: 'On my way' }).click();
    await view.getByRole('heading', { name: /^On my way sent at / }).waitFor();
    const sent = await t.db
      .selectFrom('bookings')
      .select(['customer_name', 'on_my_way_sent_at'])
      .where('pro_id', '=', made.pro.id)
      .orderBy('starts_at')
      .execute();
    expect(sent.map((b) => [b.customer_name, b.on_my_way_sent_at !== null])).toEqual([
      ['Kim 0', true],
      ['Kim 1', false],
    ]);
    expect(requests.filter((u) => new URL(u).origin !== host && !u.startsWith('about:') && !u.startsWith('data:'))).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();

    // The lead view of a platform lead: the quote, the open times, the draft, and no link, phone or email.
    const lead = await showTool(
      'log_lead',
      { source: 'marketplace_1', lead_ref: 'MK-7', lead_cost: 28, zip: '10001', bedrooms: 3, bathrooms: 2 },
      { server: 'pro' },
    );
    expect(lead.shown.uri).toBe('ui://pro-desk/lead.html');
    await lead.view.getByRole('heading', { name: 'Lead MK-7 in 10001' }).waitFor();
    await lead.view.getByRole('button', { name: 'Copy the reply' }).waitFor();
    const said = await lead.view.locator('body').innerText();
    const draft = await lead.view.getByLabel('Reply draft').inputValue();
    expect(draft.length).toBeGreaterThan(20);
    for (const text of [said, draft]) expect(text).not.toMatch(/https?:|www\.|@|\(\d{3}\)|\d{3}[-. ]\d{4}/);
    expect(await lead.view.getByRole('link').count()).toBe(0);
    expect(await axeIn(lead.frame)).toEqual([]);
    expect(lead.errors).toEqual([]);
    await lead.page.close();
  });
});
