import { createHash } from 'node:crypto';
import { singleLine } from '@frontdesk/domain';
import {
  createServiceApp,
  hostLimits,
  hostRunOptions,
  operationList,
  API_LICENSE,
  API_VERSION,
  type IdempotencyOptions,
  type Operation,
} from '@frontdesk/http';
import { bookFrontDoor, customerPages } from './pages';
import { databaseHealth, idempotencyStore, withDeadline as withinDeadline, rateLimitStore, readsFromReplica } from '@frontdesk/db';
import type { Express } from 'express';
import examples from './operations/examples.json';
import requestExamples from './operations/request-examples.json';
import { customerAuth, customerBudget, scopeGuard, type Customer } from './auth';
import { hostOAuth } from '@frontdesk/oauth';
import type { AppContext } from './context';
import { BOOKING_SERVER_INFO, bookingInstructions } from './mcp';
import { BOOKING_TAGS } from './tags';
import { bookingOperationSet } from './operations';
import { BOOKING_VIEWS } from './views';

export { API_VERSION } from '@frontdesk/http';

const userHeader = (name: string, maxLength: number, description: string) => ({
  name,
  in: 'header',
  required: false,
  description,
  schema: singleLine({ maxLength }),
});

/** The user's details an assistant may send with the shared public key. */
export const USER_HEADERS = [
  userHeader('X-User-Name', 100, "The user's name; used when customer_name is not given."),
  userHeader('X-User-Email', 200, "The user's email; used when customer_email is not given."),
  userHeader('X-User-Phone', 30, "The user's phone; used when customer_phone is not given."),
];

/** The book host's operation registry: REST routes, /openapi.json and MCP tools come from it. */
export const bookingOperations = (ctx: AppContext, set = bookingOperationSet(ctx)) => operationList<Customer>(set);

/** Builds the booking (book host) Express app from its context. */
export function createBookingApp(ctx: AppContext): { app: Express; operations: Operation<Customer>[] } {
  const set = bookingOperationSet(ctx);
  const operations = bookingOperations(ctx, set);
  const limits = hostLimits(rateLimitStore(ctx.db), ctx.clock, ctx.config.rateLimits);
  const { keys, router: oauth } = hostOAuth(ctx, limits, {
    resourceName: 'Front Desk booking',
    account: {
      wants: 'use your Front Desk cleaning bookings',
      scopes: { read: 'find cleaners, see open times, and see your bookings', write: 'book cleanings and cancel your bookings for you' },
    },
  });
  const idempotency: IdempotencyOptions<Customer> = {
    store: idempotencyStore(ctx.db),
    // The shared public key is everyone's: its keys belong to one client address (stored as a
    // hash), and the X-User-* details tell apart callers behind it. A stranger elsewhere who
    // knows a key and its body reaches a namespace of their own, never the first answer. A
    // booking page's visitor's keys are its browser visit's.
    scopeOf: (c, from) =>
      c.visit
        ? { credential: `page:${c.visit}` }
        : c.credential === 'public'
          ? { credential: `public:${createHash('sha256').update(from.address).digest('hex').slice(0, 32)}`, context: c.user }
          : { credential: `${c.credential}:${c.email}`, context: c.user },
  };
  // How every call runs, whether an assistant's or a page's: the same limits, checks, fences and safe retries.
  // The public pages' searches and listings read a replica as the operations they call declare;
  // nothing on this host is behind a sign-in page except a visitor's own bookings, read by operations that do not.
  const run = { ...hostRunOptions<Customer>(ctx, { limits, subjectOf: customerBudget, withinDeadline, readsFromReplica }), idempotency };
  const app = createServiceApp<Customer>({
    // How the host names and describes itself in /openapi.json.
    title: 'Front Desk: customer booking interface',
    description:
      'Find local house cleaners, see firm prices and open times, book, check and cancel a cleaning. Send Authorization: Bearer with the shared public key, a personal key, or an access token.',
    version: API_VERSION,
    frontDoor: bookFrontDoor(ctx),
    publicUrl: ctx.config.publicUrl,
    operations,
    examples,
    requestExamples,
    tags: BOOKING_TAGS,
    license: API_LICENSE,
    headerParameters: USER_HEADERS,
    mcp: { serverInfo: BOOKING_SERVER_INFO, instructions: bookingInstructions(operations), allowedOrigins: ctx.config.mcpAllowedOrigins, views: BOOKING_VIEWS },
    oauth: {
      authorizationUrl: `${ctx.config.publicUrl}/authorize`,
      tokenUrl: `${ctx.config.publicUrl}/token`,
      scopes: { read: 'Find cleaners, see open times and your bookings.', write: 'Book and cancel cleanings.' },
    },
    routers: [oauth, customerPages(ctx, set, run)],
    authenticate: customerAuth(ctx, keys, limits),
    ...run,
    trustProxy: ctx.config.trustProxy,
    authorize: scopeGuard(ctx.config.publicUrl),
    ...databaseHealth(ctx.db),
  });
  return { app, operations };
}
