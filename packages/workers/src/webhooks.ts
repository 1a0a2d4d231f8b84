import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { WEBHOOK_TIMEOUT_SECONDS } from '@frontdesk/domain';
import type { Db, Sealer } from '@frontdesk/db';
import { claimDueWebhooks, deliverToWebhook, writeDueEventsForWebhooks, type WebhookSender } from '@frontdesk/use-cases';
import type { Logger } from 'pino';
import type { Worker } from './ticker';

export interface WebhookWorkerOptions {
  sender: WebhookSender;
  sealer: Sealer;
  clock: () => Date;
  logger: Pick<Logger, 'warn' | 'error'>;
  /** Asks for the next tick now (a send finished, or a business with webhooks changed). */
  wake: () => void;
  /** Endpoints sent to at once by this process. */
  concurrency?: number;
  leaseSeconds?: number;
}

/** One name per process for the leases it takes. */
export const processHolder = () => `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;

/**
 * Webhooks out of the event feed. Each tick claims the endpoints that are due and owed an
 * event (as many as there is room for), and sends to each in the background, in feed order; a
 * send that ends wakes the next tick, so an endpoint with more owed is claimed again at once.
 * A slow receiver holds only its own slot (10 s at most), never the others'. Any number of
 * replicas run this; the lease keeps each endpoint with one of them at a time.
 */
export function webhookWorker(db: Db, o: WebhookWorkerOptions): Worker & { knows(proId: string): boolean; remember(proIds: string[]): void } {
  const holder = processHolder();
  const concurrency = o.concurrency ?? 32;
  const leaseSeconds = o.leaseSeconds ?? 30;
  const inflight = new Map<string, Promise<void>>();
  const withWebhooks = new Set<string>();
  return {
    name: 'webhooks',
    everyMs: 1000,
    async run(now) {
      const room = concurrency - inflight.size;
      if (room <= 0) return;
      const claimedAt = now.getTime();
      const claimed = await claimDueWebhooks(db, { holder, now, leaseSeconds, limit: room, except: [...inflight.keys()] });
      // A send may start only while the lease outlasts it, with a margin for the clocks.
      const sendUntil = claimedAt + (leaseSeconds - WEBHOOK_TIMEOUT_SECONDS - 5) * 1000;
      for (const w of claimed) {
        withWebhooks.add(w.pro_id);
        const job = deliverToWebhook(db, w, { sender: o.sender, sealer: o.sealer, holder, clock: o.clock, sendUntil })
          .catch((err: unknown) => o.logger.warn({ err: { message: (err as Error).message } }, 'webhook delivery stopped; the endpoint is tried again'))
          .finally(() => {
            inflight.delete(w.id);
            o.wake();
          });
        inflight.set(w.id, job);
      }
    },
    async drain() {
      await Promise.all(inflight.values());
    },
    /** Whether this process has seen the business with a webhook (only its changes wake the worker). */
    knows: (proId) => withWebhooks.has(proId),
    remember: (proIds) => proIds.forEach((id) => withWebhooks.add(id)),
  };
}

/** The time-based events of businesses with webhooks, written once a minute (and which businesses those are). */
export const webhookDueEventsWorker = (db: Db, remember: (ids: string[]) => void): Worker => ({
  name: 'webhook-due-events',
  everyMs: 60_000,
  run: async (now) => remember(await writeDueEventsForWebhooks(db, now)),
});
