import { createServiceApp, hostLimits, type Operation } from '@frontdesk/http';
import { databaseHealth, idempotencyStore, rateLimitStore, type Pro } from '@frontdesk/db';
import type { Express } from 'express';
import examples from './operations/examples.json';
import { proKeyAuth } from './auth';
import { keyRouter } from './key-page';
import { signUpRouter } from './sign-up-page';
import { dashboardRouter } from './dashboard/router';
import type { AppContext } from './context';
import { PRO_DESK_SERVER_INFO, PRO_DESK_INSTRUCTIONS } from './mcp';
import { PRO_DESK_API } from './version';
import { proDeskOperations } from './operations';

export { API_VERSION } from './version';

export interface ProDeskApp {
  app: Express;
  operations: Operation<Pro>[];
}

/** Builds the pro-desk (base host) Express app from its context. */
export function createProDeskApp(ctx: AppContext, extraOperations: Operation<Pro>[] = []): ProDeskApp {
  const operations = [...proDeskOperations(ctx), ...extraOperations];
  const limits = hostLimits(rateLimitStore(ctx.db), ctx.clock, ctx.config.rateLimits);
  const app = createServiceApp<Pro>({
    ...PRO_DESK_API,
    mcp: { serverInfo: PRO_DESK_SERVER_INFO, instructions: PRO_DESK_INSTRUCTIONS, allowedOrigins: ctx.config.mcpAllowedOrigins },
    publicUrl: ctx.config.publicUrl,
    operations,
    examples,
    authenticate: proKeyAuth(ctx, limits),
    rateLimit: { host: limits, subjectOf: (pro) => `pro:${pro.id}` },
    trustProxy: ctx.config.trustProxy,
    clock: ctx.clock,
    changes: ctx.changes,
    logger: ctx.logger,
    routers: [keyRouter(ctx, limits), signUpRouter(ctx, limits), dashboardRouter(ctx, limits)],
    ...databaseHealth(ctx.db),
    idempotency: { store: idempotencyStore(ctx.db), scopeOf: (pro) => ({ credential: `pro:${pro.id}` }) },
  });
  return { app, operations };
}
