import { sql } from 'kysely';
import { AuthChallengeError, createServiceApp, type Operation } from '@frontdesk/http';
import type { Express } from 'express';
import type { AppContext } from './context';

export const API_VERSION = '1.0.0';

/**
 * The booking (book host) app. For now it answers health checks and describes itself;
 * the customer operations join its registry next.
 */
export function createBookingApp(ctx: AppContext): { app: Express; operations: Operation<unknown>[] } {
  const operations: Operation<unknown>[] = [];
  const app = createServiceApp<unknown>({
    title: 'Front Desk: customer booking interface',
    description: 'Find local house cleaners, see firm prices and open times, book and manage a cleaning.',
    version: API_VERSION,
    publicUrl: ctx.config.publicUrl,
    operations,
    authenticate: async () => {
      throw new AuthChallengeError('Send a key: Authorization: Bearer <key>.', 'Bearer realm="booking"');
    },
    clock: ctx.clock,
    logger: ctx.logger,
    ready: async () => {
      await sql`SELECT 1`.execute(ctx.db);
    },
  });
  return { app, operations };
}
