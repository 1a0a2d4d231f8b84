import { sql } from 'kysely';
import { buildOpenApiDocument, createBaseApp, type Operation } from '@frontdesk/http';
import type { Express } from 'express';
import type { AppContext } from './context';

export const API_VERSION = '1.0.0';

/**
 * The booking (book host) app. For now it answers health checks and describes itself;
 * the customer operations join its registry next.
 */
export function createBookingApp(ctx: AppContext): { app: Express; operations: Operation<unknown>[] } {
  const operations: Operation<unknown>[] = [];
  const openApiDocument = buildOpenApiDocument({
    title: 'Front Desk: customer booking interface',
    version: API_VERSION,
    description: 'Find local house cleaners, see firm prices and open times, book and manage a cleaning.',
    serverUrl: ctx.config.publicUrl,
    operations,
  });
  const app = createBaseApp({
    logger: ctx.logger,
    ready: async () => {
      await sql`SELECT 1`.execute(ctx.db);
    },
    openApiDocument,
    operations,
    routers: [],
  });
  return { app, operations };
}
