import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { TEST_KEY_SEALER } from '@frontdesk/dev-env/both-hosts';
import { createTestDatabase, signInCodeSentTo, type TestDatabase } from '@frontdesk/db/testing';
import { bindPort, closeServer, createLogger } from '@frontdesk/http';
import { createBookingApp } from '@frontdesk/booking';
import { createProDeskApp } from '@frontdesk/pro-desk';
import { CHROMIUM_ARGS } from './browser';
import type { Site } from './page-flows';

/** Both hosts in this process on a fresh database, and Chromium: what a dashboard page test looks at. */
export interface PageHosts {
  t: TestDatabase;
  pro: string;
  book: string;
  browser: Browser;
  close(): Promise<void>;
}

/**
 * Starts both hosts on the real clock, each told the other's address. The two ports are bound
 * before the apps exist (each app needs the other's address), so nothing else on the machine
 * can take one between choosing it and listening on it.
 */
export async function startPageHosts(name: string, chromiumPath: string): Promise<PageHosts> {
  const t = await createTestDatabase();
  const [bookPort, proPort] = [await bindPort(0, '127.0.0.1'), await bindPort(0, '127.0.0.1')];
  const urlOf = (p: typeof bookPort) => `http://127.0.0.1:${(p.server.address() as AddressInfo).port}`;
  const [book, pro] = [urlOf(bookPort), urlOf(proPort)];
  const logger = createLogger(`pages-${name}`, 'silent');
  const clock = () => new Date();
  const common = {
    proDeskUrl: pro,
    bookingUrl: book,
    publicSharedKey: `fdpub_${name}_public_key`,
    mcpAllowedOrigins: [],
    keySealer: TEST_KEY_SEALER,
    checkAnswers: true,
  };
  bookPort.serve(
    createBookingApp({ db: t.db, config: { ...common, publicUrl: book, publicClientId: 'front-desk', publicClientRedirectUris: [] }, logger, clock }).app,
  );
  proPort.serve(createProDeskApp({ db: t.db, config: { ...common, publicUrl: pro }, logger, clock }).app);
  const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: CHROMIUM_ARGS });
  return {
    t,
    pro,
    book,
    browser,
    async close() {
      await browser.close();
      await Promise.all([bookPort.server, proPort.server].map(closeServer));
      await t.drop();
    },
  };
}

/** Both hosts as the page flows reach them, with the sign-in codes their database holds. */
export const siteOf = (h: PageHosts): Site => ({ pro: h.pro, book: h.book, codeSentTo: (email) => signInCodeSentTo(h.t.db, email) });

/** One call of the pro host's API with a business's key, expected to answer 200: its answer. */
export async function proCall<T>(h: PageHosts, key: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${h.pro}/api/v1/${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const answer = (await res.json()) as T;
  expect([path, res.status, answer]).toEqual([path, 200, expect.anything()]);
  return answer;
}
