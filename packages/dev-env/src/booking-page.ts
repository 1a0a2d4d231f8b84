import type { Browsing } from './cookie-jar';

/**
 * The booking page walked over HTTP as a browser does it: a time picked is held for the
 * browser's visit, and the details step books with that hold. For the booking host's page
 * tests; Chromium walks the same steps in test-e2e.
 */

/** What these steps need of a browser: a GET and a form POST that keep cookies (`browse`, or supertest's agent through `agentBrowsing`). */
export type PageBrowser = Pick<Browsing, 'get' | 'post'>;

/** supertest's agent (it keeps cookies) as a PageBrowser. */
export const agentBrowsing = (agent: { get(url: string): import('supertest').Test; post(url: string): import('supertest').Test }): PageBrowser => ({
  get: async (url) => agent.get(url),
  post: async (url, form = {}) => agent.post(url).type('form').send(form),
});

/** A page's hidden fields, by name, as a browser sends them back (the template's entities undone). */
export const hiddenOf = (page: string): Record<string, string> =>
  Object.fromEntries(
    [...page.matchAll(/type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [
      m[1]!,
      m[2]!.replace(/&amp;|&quot;|&#39;|&#96;|&lt;|&gt;/g, (e) => ({ '&amp;': '&', '&quot;': '"', '&#39;': "'", '&#96;': '`', '&lt;': '<', '&gt;': '>' })[e]!),
    ]),
  );

/** The open starts a page offers, in its order. */
export const startsOn = (page: string): string[] => [...page.matchAll(/name="start" value="([^"]+)"/g)].map((m) => m[1]!);

/** Picks `start` for the job: the hold's 303, and the details step it leads to. */
export async function holdOnThePage(browser: PageBrowser, cleaner: string, pick: Record<string, string>) {
  const held = await browser.post(`/book/${cleaner}/hold`, pick);
  if (held.status !== 303) throw new Error(`Holding on the booking page answered ${held.status}: ${held.text.slice(0, 300)}`);
  const at = String(held.headers.location);
  return { at, details: await browser.get(at) };
}

/**
 * Books on the page as a customer does: the job and `start` held, then the details step sent
 * with `details`. Answers the booking form's response (303 to the confirmation, or a refusal).
 */
export async function bookOnThePage(browser: PageBrowser, cleaner: string, o: { pick: Record<string, string>; details: Record<string, string> }) {
  const { details } = await holdOnThePage(browser, cleaner, o.pick);
  return browser.post(`/book/${cleaner}`, { ...hiddenOf(details.text), ...o.details });
}
