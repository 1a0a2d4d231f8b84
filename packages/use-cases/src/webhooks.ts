import { isIP } from 'node:net';
import {
  MAX_WEBHOOKS,
  WEBHOOK_FAILING_AFTER,
  WEBHOOK_PREVIOUS_SECRET_HOURS,
  checkEventKinds,
  checkWebhookUrl,
  isLoopbackHost,
  isPublicAddress,
  noBusiness,
  noWebhook,
  retryDelaySeconds,
  takesKind,
  tooManyWebhooks,
  webhookFailingMessage,
  webhookGoneMessage,
  webhookPingMessage,
  webhookRecoveredMessage,
  webhookUrlNotPublic,
  webhookUrlTaken,
} from '@frontdesk/domain';
import {
  appendEvent,
  claimDueWebhooks,
  countWebhooks,
  deleteGoneWebhook,
  deleteWebhook,
  getPro,
  insertWebhook,
  lockPro,
  prosWithWebhooks,
  readFeed,
  recordDelivered,
  recordFailure,
  releaseWebhook,
  sealedWebhookSecretOf,
  rotateWebhookSecretRow,
  saveSealedWebhookSecrets,
  sealedWebhookSecrets,
  updateWebhookRow,
  webhookForSending,
  webhookOf,
  webhookUrlTaken as urlTaken,
  webhooksOf,
  type Db,
  type Sealer,
  type Webhook,
  type WebhookChanges,
  type WebhookState,
} from '@frontdesk/db';
import { materializeDueEvents, presentFeedEvent } from './updates';

/** One request to a receiver, signed by every secret that signs now (Standard Webhooks). */
export interface WebhookRequest {
  url: string;
  /** webhook-id: the event's id, the same on every retry (the sender stamps the time). */
  id: string;
  body: string;
  secrets: string[];
}

/** What a receiver did with a request: acknowledged it (2xx), or why not. */
export type WebhookOutcome = { ok: true; status: number; answer: string } | { ok: false; status: number | null; reason: string; answer: string };

/** Sends one request under the outbound guards (packages/workers/src/webhook-sender.ts). */
export interface WebhookSender {
  send(request: WebhookRequest): Promise<WebhookOutcome>;
}

/** Where a webhook may point: plain http to this machine only while the host itself is on http. */
export interface WebhookRules {
  hostIsHttp: boolean;
}

/** The webhook-id of a feed event: the business and the event's place in its feed. */
export const eventId = (proId: string, seq: number) => `evt_${proId}_${seq}`;

function judgeUrl(raw: string, rules: WebhookRules): string {
  const url = checkWebhookUrl(raw, rules);
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  // A name is resolved and judged when sending; an address written out is judged now.
  if (isIP(host) && !isPublicAddress(host) && !(rules.hostIsHttp && isLoopbackHost(new URL(url).hostname))) throw webhookUrlNotPublic(host);
  return url;
}

async function ownWebhook(db: Db, proId: string, id: string): Promise<WebhookState> {
  const found = await webhookOf(db, proId, id);
  if (!found) throw noWebhook(id);
  return found;
}

export const listWebhooks = (db: Db, proId: string) => webhooksOf(db, proId);

/** Adds an endpoint (at most MAX_WEBHOOKS a business, one per url); its secret is returned this once. */
export async function addWebhook(db: Db, proId: string, input: { url: string; kinds?: string[] }, o: WebhookRules & { sealer: Sealer; now: Date }) {
  const url = judgeUrl(input.url, o);
  const kinds = checkEventKinds(input.kinds);
  const { id, secret } = await db.transaction().execute(async (trx) => {
    if (!(await lockPro(trx, proId))) throw noBusiness();
    if ((await countWebhooks(trx, proId)) >= MAX_WEBHOOKS) throw tooManyWebhooks(MAX_WEBHOOKS);
    if (await urlTaken(trx, proId, url)) throw webhookUrlTaken();
    return insertWebhook(trx, { proId, url, kinds, sealer: o.sealer, now: o.now });
  });
  return { webhook: await ownWebhook(db, proId, id), secret };
}

/** Changes an endpoint's url, kinds or pause; any call, one with nothing to change too, retries a failing one at once. */
export async function updateWebhook(
  db: Db,
  proId: string,
  input: { webhook_id: string; url?: string; kinds?: string[] | null; paused?: boolean },
  o: WebhookRules & { now: Date },
) {
  // Only webhook_id is "retry now" (docs/webhooks.md), as the dashboard's button does it.
  if (input.url === undefined && input.kinds === undefined && input.paused === undefined) return retryWebhookNow(db, proId, input.webhook_id, o.now);
  const set: WebhookChanges = {
    ...(input.url !== undefined ? { url: judgeUrl(input.url, o) } : {}),
    ...(input.kinds !== undefined ? { kinds: checkEventKinds(input.kinds) } : {}),
    ...(input.paused !== undefined ? { paused: input.paused } : {}),
  };
  await db.transaction().execute(async (trx) => {
    if (!(await lockPro(trx, proId))) throw noBusiness();
    if (set.url !== undefined && (await urlTaken(trx, proId, set.url, input.webhook_id))) throw webhookUrlTaken();
    if (!(await updateWebhookRow(trx, { proId, id: input.webhook_id, now: o.now }, set))) throw noWebhook(input.webhook_id);
  });
  return ownWebhook(db, proId, input.webhook_id);
}

/** "Retry now": a failing endpoint is tried at once instead of at its next backoff. */
async function retryWebhookNow(db: Db, proId: string, id: string, now: Date): Promise<WebhookState> {
  if (!(await updateWebhookRow(db, { proId, id, now }, {}))) throw noWebhook(id);
  return ownWebhook(db, proId, id);
}

export async function removeWebhook(db: Db, proId: string, id: string): Promise<{ url: string }> {
  const url = await deleteWebhook(db, proId, id);
  if (url === undefined) throw noWebhook(id);
  return { url };
}

/** A new secret, shown once; the previous one keeps signing for WEBHOOK_PREVIOUS_SECRET_HOURS. */
export async function rotateWebhookSecret(db: Db, proId: string, id: string, o: { sealer: Sealer; now: Date }) {
  const until = new Date(o.now.getTime() + WEBHOOK_PREVIOUS_SECRET_HOURS * 3600_000);
  const secret = await rotateWebhookSecretRow(db, { proId, id, sealer: o.sealer, until, now: o.now });
  if (secret === undefined) throw noWebhook(id);
  return { webhook: await ownWebhook(db, proId, id), secret, previousUntil: until };
}

/**
 * The secret an endpoint signs with now, for an add or a rotation answered again to a retry
 * with the same idempotency key: secrets are never kept in the stored answer. Refused once the
 * endpoint is removed.
 */
export async function currentWebhookSecret(db: Db, id: string, sealer: Sealer): Promise<string> {
  const row = await sealedWebhookSecretOf(db, id);
  if (!row) throw noWebhook(id);
  return sealer.open(row.secret_sealed, row.id).toString();
}

/** The secrets that sign now: the current one, and each one before it until its time is up. */
export function signingSecrets(
  w: Pick<Webhook, 'id' | 'secret_sealed' | 'previous_secret_sealed' | 'previous_until' | 'older_secret_sealed' | 'older_until'>,
  sealer: Sealer,
  now: Date,
): string[] {
  const signing = [w.secret_sealed];
  for (const [sealed, until] of [
    [w.previous_secret_sealed, w.previous_until],
    [w.older_secret_sealed, w.older_until],
  ] as const) {
    if (sealed !== null && until !== null && until.getTime() > now.getTime()) signing.push(sealed);
  }
  return signing.map((sealed) => sealer.open(sealed, w.id).toString());
}

/** Sends a `ping` now, outside the feed, and answers what the receiver answered. */
export async function testWebhook(db: Db, proId: string, id: string, o: { sealer: Sealer; sender: WebhookSender; now: Date }) {
  const w = await webhookForSending(db, proId, id);
  if (!w) throw noWebhook(id);
  const body = JSON.stringify({ business_id: proId, kind: 'ping', at: o.now.toISOString(), message: webhookPingMessage() });
  const outcome = await o.sender.send({ url: w.url, id: `ping_${id}_${o.now.getTime()}`, body, secrets: signingSecrets(w, o.sealer, o.now) });
  return { url: w.url, outcome };
}

export { claimDueWebhooks };

export interface DeliveryContext {
  sender: WebhookSender;
  sealer: Sealer;
  /** Who holds the lease (one id per process). */
  holder: string;
  clock: () => Date;
  /** Nothing new is sent after this instant (the lease's end, less a request's time). */
  sendUntil: number;
  random?: () => number;
}

const PAGE = 20;

/**
 * Sends a claimed endpoint what it is owed, in feed order, one event at a time, until it is
 * caught up, a try fails, or the lease's time for sending runs out. An acknowledged event
 * moves the cursor; an event of a kind it does not take is passed over; a failure is counted
 * and the next try put off (marking the endpoint failing, once, with an event in the feed);
 * a 410 removes it. Every write checks the lease is still ours.
 */
export async function deliverToWebhook(db: Db, w: Webhook, c: DeliveryContext): Promise<void> {
  const pro = await getPro(db, w.pro_id);
  if (!pro) return;
  const secrets = signingSecrets(w, c.sealer, c.clock());
  let cursor = w.delivered_seq;
  let recovering = w.failing_since !== null;
  try {
    for (;;) {
      const page = await readFeed(db, w.pro_id, { seq: cursor }, PAGE);
      for (const e of page.events) {
        if (!takesKind(w.kinds, e.kind)) {
          if (!(await recordDelivered(db, { id: w.id, holder: c.holder, seq: e.seq, at: null }))) return;
          cursor = e.seq;
          continue;
        }
        if (c.clock().getTime() > c.sendUntil) return;
        const at = c.clock();
        const body = JSON.stringify({ business_id: w.pro_id, cursor: e.seq, ...presentFeedEvent(e, pro.timezone) });
        const outcome = await c.sender.send({ url: w.url, id: eventId(w.pro_id, e.seq), body, secrets });
        if (!outcome.ok) return await failed(db, w, { outcome, at, c });
        if (!(await acknowledged(db, w, { seq: e.seq, at, recovering, holder: c.holder }))) return;
        recovering = false;
        cursor = e.seq;
      }
      // A short page was the feed's end when read: anything later wakes a new claim.
      if (page.events.length < PAGE) return;
    }
  } finally {
    await releaseWebhook(db, w.id, c.holder);
  }
}

function acknowledged(db: Db, w: Webhook, a: { seq: number; at: Date; recovering: boolean; holder: string }): Promise<boolean> {
  if (!a.recovering) return recordDelivered(db, { id: w.id, holder: a.holder, seq: a.seq, at: a.at });
  return db.transaction().execute(async (trx) => {
    const ours = await recordDelivered(trx, { id: w.id, holder: a.holder, seq: a.seq, at: a.at });
    if (ours) {
      await appendEvent(trx, w.pro_id, {
        kind: 'webhook.recovered',
        payload: { webhook_id: w.id, url: w.url, message: webhookRecoveredMessage(w.url) },
        at: a.at,
      });
    }
    return ours;
  });
}

async function failed(db: Db, w: Webhook, f: { outcome: Extract<WebhookOutcome, { ok: false }>; at: Date; c: DeliveryContext }): Promise<void> {
  const { outcome, at, c } = f;
  await db.transaction().execute(async (trx) => {
    if (outcome.status === 410) {
      if (await deleteGoneWebhook(trx, w.id, c.holder)) {
        await appendEvent(trx, w.pro_id, { kind: 'webhook.removed', payload: { webhook_id: w.id, url: w.url, message: webhookGoneMessage(w.url) }, at });
      }
      return;
    }
    const attempts = w.attempts + 1;
    const nextAt = new Date(at.getTime() + retryDelaySeconds(attempts, (c.random ?? Math.random)()) * 1000);
    const nowFailing = attempts >= WEBHOOK_FAILING_AFTER && w.failing_since === null;
    const ours = await recordFailure(trx, { id: w.id, holder: c.holder, at, reason: outcome.reason, nextAt, failingSince: nowFailing ? at : null });
    if (ours && nowFailing) {
      const payload = { webhook_id: w.id, url: w.url, attempts, reason: outcome.reason, message: webhookFailingMessage(w.url, attempts, outcome.reason) };
      await appendEvent(trx, w.pro_id, { kind: 'webhook.failing', payload, at });
    }
  });
}

/**
 * Writes the time-based events (follow-ups due, today's jobs) of every business with a live
 * webhook, which are otherwise written when `updates` is polled: a business that only
 * receives webhooks gets them too. Returns those businesses.
 */
export async function writeDueEventsForWebhooks(db: Db, now: Date): Promise<string[]> {
  const ids = await prosWithWebhooks(db);
  for (const id of ids) {
    const pro = await getPro(db, id);
    if (pro) await materializeDueEvents(db, pro, now);
  }
  return ids;
}

/**
 * Seals every webhook secret again under the current key-encryption key (after a rotation of
 * that key, before the previous one is removed): answers how many endpoints were sealed again.
 */
export async function resealWebhookSecrets(db: Db, sealer: Sealer): Promise<number> {
  const rows = await sealedWebhookSecrets(db);
  for (const r of rows) {
    const again = (sealed: Buffer) => sealer.seal(sealer.open(sealed, r.id), r.id);
    await saveSealedWebhookSecrets(db, {
      id: r.id,
      secret: again(r.secret_sealed),
      previous: r.previous_secret_sealed ? again(r.previous_secret_sealed) : null,
      older: r.older_secret_sealed ? again(r.older_secret_sealed) : null,
    });
  }
  return rows.length;
}
