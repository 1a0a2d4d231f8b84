import { createServiceApp, hostLimits, hostRunOptions, operationList, API_LICENSE, API_VERSION, html, safeUrl, type Operation } from '@frontdesk/http';
import { databaseHealth, idempotencyStore, withDeadline as withinDeadline, proOwnedBy, rateLimitStore, readsFromReplica, type Pro } from '@frontdesk/db';
import { hostOAuth } from '@frontdesk/oauth';
import type { Express } from 'express';
import examples from './operations/examples.json';
import requestExamples from './operations/request-examples.json';
import { proKeyAuth, proScopeGuard } from './auth';
import { keyRouter } from './key-page';
import { signUpRouter } from './sign-up-page';
import { dashboardRouter } from './dashboard/router';
import type { AppContext } from './context';
import { PRO_DESK_SERVER_INFO, proDeskInstructions } from './mcp';
import { PRO_DESK_TAGS } from './tags';
import { PRO_DESK_VIEWS } from './views';
import { proDeskOperationSet } from './operations';

export { API_VERSION } from '@frontdesk/http';

export interface ProDeskApp {
  app: Express;
  operations: Operation<Pro>[];
}

/** The page at `/`: what this host is and where a business or a customer goes from it. */
const frontDoorHtml = (ctx: AppContext) =>
  html`<p>
      The back office and booking desk of a house-cleaning business, run by its AI assistant: prices from your own list, open times, marketplace leads answered
      with a firm quote, follow-ups, bookings and cancellations, and how the month went.
    </p>
    <ul>
      <li><a href="/signup">Sign your business up</a></li>
      <li><a href="/dashboard">Your dashboard</a></li>
      <li>Connect your assistant over MCP: <code>${ctx.config.publicUrl}/mcp</code> (it signs you in with OAuth, or send your business key)</li>
      <li><a href="/docs">API reference</a> and <a href="/openapi.json">/openapi.json</a></li>
      <li>
        Booking cleanings as a customer: <a href="${safeUrl(`${ctx.config.bookingUrl}/`)}">${ctx.config.bookingUrl}</a>, and a
        <a href="/key">personal key</a> for your assistant
      </li>
    </ul>`;

/** The pro-desk operation registry: REST routes, /openapi.json and MCP tools come from this list. */
export const proDeskOperations = (ctx: AppContext, set = proDeskOperationSet(ctx)) => operationList<Pro>(set);

/** Builds the pro-desk (base host) Express app from its context. */
export function createProDeskApp(ctx: AppContext, extraOperations: Operation<Pro>[] = []): ProDeskApp {
  const set = proDeskOperationSet(ctx);
  const operations = [...proDeskOperations(ctx, set), ...extraOperations];
  const limits = hostLimits(rateLimitStore(ctx.db), ctx.clock, ctx.config.rateLimits);
  // Assistants that connect only with OAuth (claude.ai, ChatGPT) sign the owner in here,
  // with the same authorization server as the book host; a business's key works beside it.
  const { keys, router: oauth } = hostOAuth(ctx, limits, {
    resourceName: 'Front Desk pro desk',
    account: {
      wants: 'run your cleaning business on Front Desk: prices, schedule, leads and bookings',
      scopes: {
        read: 'see your business, prices, open times, schedule, leads and reports',
        write: 'book and cancel jobs, log and update leads, and change your prices, hours and time off',
      },
      refuse: async (email) =>
        (await proOwnedBy(ctx.db, email))
          ? null
          : `No business has signed up with ${email}. Sign your business up at ${ctx.config.publicUrl}/signup, then connect again.`,
    },
  });
  // How every call runs, whether an assistant's or a dashboard form's: the same limits, checks and fences.
  // A dashboard form that carries a key (booking a client again) runs once for it, as an assistant's call does.
  const run = {
    ...hostRunOptions<Pro>(ctx, { limits, subjectOf: (pro) => `pro:${pro.id}`, withinDeadline }),
    idempotency: { store: idempotencyStore(ctx.db), scopeOf: (pro: Pro) => ({ credential: `pro:${pro.id}` }) },
  };
  const app = createServiceApp<Pro>({
    // How the host names and describes itself in /openapi.json.
    title: 'Front Desk: cleaning-business interface',
    description:
      "The front desk of a cleaning business: prices jobs from the business's own list, lists open times, books and cancels jobs, shows the schedule. Every call needs the business's key: Authorization: Bearer <key>.",
    version: API_VERSION,
    frontDoor: {
      title: 'Front Desk for cleaning businesses',
      html: frontDoorHtml(ctx),
    },
    mcp: {
      serverInfo: PRO_DESK_SERVER_INFO,
      instructions: proDeskInstructions(operations),
      allowedOrigins: ctx.config.mcpAllowedOrigins,
      views: PRO_DESK_VIEWS,
    },
    publicUrl: ctx.config.publicUrl,
    operations,
    examples,
    requestExamples,
    tags: PRO_DESK_TAGS,
    license: API_LICENSE,
    oauth: {
      authorizationUrl: `${ctx.config.publicUrl}/authorize`,
      tokenUrl: `${ctx.config.publicUrl}/token`,
      scopes: { read: 'See the business, prices, open times, schedule, leads and reports.', write: 'Book, cancel, log leads and change settings.' },
    },
    authenticate: proKeyAuth(ctx, limits, keys),
    authorize: proScopeGuard(ctx.config.publicUrl),
    // An assistant's quote_job and open_times may read a replica (their `reads`); the signed-in
    // dashboard's forms read the primary, whatever the operation declares.
    ...run,
    readsFromReplica,
    trustProxy: ctx.config.trustProxy,
    routers: [oauth, keyRouter(ctx, limits), signUpRouter(ctx, limits), dashboardRouter(ctx, limits, set, run)],
    ...databaseHealth(ctx.db),
  });
  return { app, operations };
}
