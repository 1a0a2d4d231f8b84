import { deliverOutbox, purgeExpired, type ChangeFeed, type Db, type MailTransport, type Sealer } from '@frontdesk/db';
import {
  extendSeries,
  makeDueAgendas,
  sendDueCustomerMessages,
  syncDueFeeds,
  type CustomerMessageLinks,
  type FeedReader,
  type HostMail,
} from '@frontdesk/use-cases';
import type { Logger } from 'pino';
import { createMailTransport, type MailOptions } from './mail-transport';
import { startTicker, type Running, type TickerContext, type Worker } from './ticker';
import { createWebhookSender, type WebhookSenderOptions } from './webhook-sender';
import { processHolder, webhookDueEventsWorker, webhookWorker } from './webhooks';
import { createFeedReader } from './feed-reader';

const SECOND = 1000;
const MINUTE = 60 * SECOND;

const OUTBOX_BATCH = 20;

/**
 * Mail (sign-in codes, confirmations, reminders) out of the outbox; every replica may deliver,
 * each mail goes once. A tick goes on while batches come back full, so a burst (thousands of
 * reminders due at one hour) leaves at the transport's pace, not 20 every 2 seconds.
 */
export const outboxWorker = (db: Db, transport: MailTransport): Worker => ({
  name: 'outbox',
  everyMs: 2 * SECOND,
  run: async () => {
    while ((await deliverOutbox(db, transport, OUTBOX_BATCH)) === OUTBOX_BATCH);
  },
});

/** Expired codes, sessions, tokens, windows and old mail deleted. */
export const purgeWorker = (db: Db): Worker => ({ name: 'purge', everyMs: 10 * MINUTE, run: (now) => purgeExpired(db, now) });

/** Series horizons rolled forward, so visits are added as time passes even when nobody calls; safe on every replica. */
export const seriesWorker = (db: Db): Worker => ({ name: 'series', everyMs: 10 * MINUTE, run: (now) => extendSeries(db, now) });

/**
 * Reminders and review requests materialized as they come due (each once, whichever replica
 * is first), every 30 seconds: a message leaves well within 2 minutes of its time.
 */
export const customerMessagesWorker = (db: Db, links: CustomerMessageLinks): Worker => ({
  name: 'customer-messages',
  everyMs: 30 * SECOND,
  run: (now) => sendDueCustomerMessages(db, links, now),
});

/** The owners' (and crews') morning agendas, each made once per business and local day on whichever replica looks first. */
export const agendaWorker = (db: Db): Worker => ({ name: 'agenda', everyMs: MINUTE, run: (now) => makeDueAgendas(db, now) });

/**
 * Properties' calendar feeds read when due (every 15 minutes each), 25 at a time; each feed
 * is leased by one replica while it is read, so replicas never read one feed at once. A tick
 * goes on while batches come back full, each batch on the tick's clock plus the time spent so
 * far (its leases run from when it is taken), so a thousand properties due together are read
 * in one go rather than 25 every 20 seconds.
 */
export const feedsWorker = (db: Db, reader: FeedReader, o: { limit?: number; host?: HostMail } = {}): Worker => {
  const holder = processHolder();
  const limit = o.limit ?? 25;
  return {
    name: 'feeds',
    everyMs: 20 * SECOND,
    run: async (now) => {
      const started = Date.now();
      const at = () => new Date(now.getTime() + (Date.now() - started));
      while ((await syncDueFeeds(db, { reader, holder, now: at(), limit, leaseSeconds: 120, host: o.host })) === limit);
    },
  };
};

/** The timed workers of a process: the outbox only when mail can leave, customer messages when the book host's address is known, the feeds only when they may be read. */
export function workerList(db: Db, transport: MailTransport | null, o: { links?: CustomerMessageLinks; reader?: FeedReader; host?: HostMail } = {}): Worker[] {
  return [
    ...(transport ? [outboxWorker(db, transport)] : []),
    purgeWorker(db),
    seriesWorker(db),
    agendaWorker(db),
    ...(o.links ? [customerMessagesWorker(db, o.links)] : []),
    ...(o.reader ? [feedsWorker(db, o.reader, { host: o.host })] : []),
  ];
}

export interface WorkersOptions {
  db: Db;
  /** The change feed the process's caches trust; listened to until stop. */
  changes?: ChangeFeed;
  logger: Logger;
  clock: () => Date;
  mail: MailOptions;
  /** The book host's address: routine customer mail (reminders, review requests) is materialized when given. */
  customerMail?: CustomerMessageLinks;
  /** A host-requested property's host is mailed the calendars' changes to its cleans when given (the book host's links, the keys its page link is made under). */
  hostMail?: HostMail;
  /** Webhooks are sent when given: the sealer their secrets are sealed with, and the outbound rules. */
  webhooks?: WebhookSenderOptions & { sealer: Sealer };
}

/** Each worker's last tick: when it ended (ms since the epoch), and how many ticks failed since start. */
export type Heartbeats = ReadonlyMap<string, { lastRunMs: number; failures: number }>;

/** What startWorkers started. */
export interface Started {
  /** Waits for running ticks and sends, and stops listening; close the pool after. */
  stop(): Promise<void>;
  /** The workers' heartbeats, for /metrics (a worker appears after its first tick). */
  heartbeats(): Heartbeats;
}

/**
 * The webhook sender: woken by every change heard to a business known to have a webhook, by
 * every send that ends, and once a second besides.
 */
function startWebhooks(o: WorkersOptions, ctx: TickerContext): Running[] {
  if (!o.webhooks) return [];
  const sender = createWebhookSender(o.webhooks);
  let wake = () => {};
  const worker = webhookWorker(o.db, { sender, sealer: o.webhooks.sealer, clock: o.clock, logger: o.logger, wake: () => wake() });
  const sending = startTicker(worker, ctx);
  wake = () => sending.wake();
  const stopListening = o.changes?.onChange((proId) => worker.knows(proId) && sending.wake());
  const due = startTicker(
    webhookDueEventsWorker(o.db, (ids) => worker.remember(ids)),
    ctx,
  );
  return [
    due,
    {
      wake: () => sending.wake(),
      async stop() {
        stopListening?.();
        await sending.stop();
        sender.close();
      },
    },
  ];
}

/**
 * Everything a process runs besides answering requests, started by every entry point (each
 * service's main, `pnpm start`, the benchmark's servers) with this one call, after the
 * schema is in place. `stop` waits for running ticks and stops listening; close the pool after.
 */
export function startWorkers(o: WorkersOptions): Started {
  void o.changes?.start();
  const beats = new Map<string, { lastRunMs: number; failures: number }>();
  const ticked = (worker: string, ok: boolean) => {
    const failures = (beats.get(worker)?.failures ?? 0) + (ok ? 0 : 1);
    // Wall time, not the injected clock: a scrape compares it with its own time.
    beats.set(worker, { lastRunMs: Date.now(), failures });
  };
  const ctx = { clock: o.clock, logger: o.logger, ticked };
  const reader = o.webhooks ? createFeedReader({ allowLoopback: o.webhooks.allowLoopback }) : undefined;
  const running = [
    ...workerList(o.db, createMailTransport(o.mail, o.logger), { links: o.customerMail, reader, host: o.hostMail }).map((w) => startTicker(w, ctx)),
    ...startWebhooks(o, ctx),
  ];
  return {
    async stop() {
      await Promise.all(running.map((r) => r.stop()));
      await o.changes?.close();
    },
    heartbeats: () => beats,
  };
}

const hostMails = new WeakMap<object, HostMail>();

/**
 * The host mail of a host's configuration (the book host's address and the business's
 * dashboard for the links, the server's keys a rental's page link is made under), made once per
 * configuration: the host's workers, its operations and its pages all take this one. Each host
 * names its own addresses (booking: its own and PRO_DESK_URL; pro desk: BOOKING_URL and its own).
 */
export function hostMailOptions(config: object, o: { bookingUrl: string; proDeskUrl: string; keySealer: { hashKeys: readonly Buffer[] } }): HostMail {
  const made = hostMails.get(config);
  if (made) return made;
  const { bookingUrl, proDeskUrl, keySealer } = o;
  const host: HostMail = { links: { bookingUrl, dashboardUrl: `${proDeskUrl}/dashboard` }, keys: keySealer.hashKeys };
  hostMails.set(config, host);
  return host;
}

/** A host's webhook settings from its config: its sealer, and loopback receivers only while it is itself on http. */
export const webhookOptions = (config: { publicUrl: string; keySealer: Sealer }): WorkersOptions['webhooks'] => ({
  sealer: config.keySealer,
  allowLoopback: config.publicUrl.startsWith('http:'),
});
