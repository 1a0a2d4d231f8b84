import { isLoopbackHost } from './addresses';
import { EVENT_KINDS } from './answer-schemas';
import { webhookUrlNotHttps, webhookUrlNotUrl, webhookUrlShape, unknownEventKinds } from './words/webhooks';

/**
 * Webhooks: the rules of an endpoint (which addresses, which kinds) and of retrying one that
 * fails. The sending itself is the workers' (packages/workers/src/webhook-sender.ts).
 */

export const MAX_WEBHOOKS = 10;
/** A receiver has this long, from connecting to its status line, to answer an event; what it sends after its status is read until then too. */
export const WEBHOOK_TIMEOUT_SECONDS = 10;
/**
 * How long test_webhook waits for the receiver: well inside a request's deadline (8 s by
 * default), so the owner hears the receiver was slow, not that the service was.
 */
export const WEBHOOK_TEST_TIMEOUT_SECONDS = 5;
/** At most this much of a receiver's answer is read (the rest is dropped). */
export const WEBHOOK_ANSWER_MAX_BYTES = 16 * 1024;
/** After a secret is rotated, the previous one signs too for this long. */
export const WEBHOOK_PREVIOUS_SECRET_HOURS = 24;
/** Failed tries in a row after which an endpoint is marked failing (and the feed says so). */
export const WEBHOOK_FAILING_AFTER = 5;
/** The first retry's wait, doubled each failure up to the cap; the endpoint is never switched off. */
export const WEBHOOK_FIRST_RETRY_SECONDS = 5;
export const WEBHOOK_MAX_RETRY_SECONDS = 60 * 60;

/**
 * The wait before try number `attempts + 1` after `attempts` failures in a row: exponential
 * (5 s, 10 s, 20 s … capped at an hour) with full jitter over its upper half, so endpoints that
 * failed together do not retry together. Retries never stop: at the cap that is 24 a day.
 */
export function retryDelaySeconds(attempts: number, random: number): number {
  const ceiling = Math.min(WEBHOOK_FIRST_RETRY_SECONDS * 2 ** Math.max(0, attempts - 1), WEBHOOK_MAX_RETRY_SECONDS);
  return ceiling / 2 + (ceiling / 2) * Math.min(Math.max(random, 0), 1);
}

/**
 * Judges an endpoint's address: a full https URL without credentials or fragment, or plain
 * http to this machine while Front Desk itself runs on http (`pnpm start`, tests). Whether a
 * host name resolves to a public address is checked when sending, at connect time.
 */
export function checkWebhookUrl(raw: string, o: { hostIsHttp: boolean }): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw webhookUrlNotUrl();
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && o.hostIsHttp && isLoopbackHost(url.hostname))) {
    throw url.protocol === 'http:' ? webhookUrlNotHttps() : webhookUrlNotUrl();
  }
  if (url.username || url.password || url.hash) throw webhookUrlShape();
  // A fully qualified name (a trailing dot) is the same host: one receiver, one address.
  if (url.hostname.endsWith('.')) url.hostname = url.hostname.replace(/\.+$/, '');
  return url.href;
}

/** The kinds an endpoint takes: null (or an empty list) for all; a list is checked against the feed's kinds. */
export function checkEventKinds(kinds: string[] | undefined | null): string[] | null {
  if (kinds === undefined || kinds === null || kinds.length === 0) return null;
  const unknown = kinds.filter((k) => !(EVENT_KINDS as readonly string[]).includes(k));
  if (unknown.length > 0) throw unknownEventKinds(unknown, EVENT_KINDS);
  return [...new Set(kinds)];
}

/** Whether an endpoint takes an event of this kind. */
export const takesKind = (kinds: string[] | null, kind: string) => kinds === null || kinds.includes(kind);
