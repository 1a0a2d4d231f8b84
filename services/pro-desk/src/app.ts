import { sql } from 'kysely';
import { buildOpenApiDocument, createBaseApp, createRestRouter, type Operation } from '@frontdesk/http';
import type { Pro } from '@frontdesk/db';
import type { Express } from 'express';
import { proKeyAuth } from './auth';
import type { AppContext } from './context';
import { proDeskOperations } from './operations';

export const API_VERSION = '1.0.0';

export interface ProDeskApp {
  app: Express;
  operations: Operation<Pro>[];
}

/** Builds the pro-desk (base host) Express app from its context. */
export function createProDeskApp(ctx: AppContext, extraOperations: Operation<Pro>[] = []): ProDeskApp {
  const operations = [...proDeskOperations(ctx), ...extraOperations];
  const openApiDocument = buildOpenApiDocument({
    title: 'Front Desk: cleaning-business interface',
    version: API_VERSION,
    description:
      "The front desk of a cleaning business: prices jobs from the business's own list, lists open times, books and cancels jobs, shows the schedule. Every call needs the business's key: Authorization: Bearer <key>.",
    serverUrl: ctx.config.publicUrl,
    operations,
  });
  const rest = createRestRouter<Pro>({
    operations,
    openApiDocument,
    authenticate: proKeyAuth(ctx),
    clock: ctx.clock,
    logger: ctx.logger,
  });
  const app = createBaseApp({
    logger: ctx.logger,
    ready: async () => {
      await sql`SELECT 1`.execute(ctx.db);
    },
    openApiDocument,
    operations,
    routers: [rest],
  });
  return { app, operations };
}
