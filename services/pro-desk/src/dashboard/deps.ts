import type { Request } from 'express';
import type { Pro } from '@frontdesk/db';
import { AppError } from '@frontdesk/domain';
import { dashboardOwner } from '@frontdesk/use-cases';
import {
  cookieValue,
  holderOf,
  runOperation,
  ShownOnce,
  type Holder,
  type HostLimits,
  type AnswerOf,
  type AnyOperation,
  type RunOptions,
} from '@frontdesk/http';
import { createHash } from 'node:crypto';
import type { AppContext } from '../context';
import type { ProDeskOperationSet } from '../operations';

/** What the dashboard's routes share: the app's context, its limits, the operations its forms run and how they run. */
export interface DashboardDeps {
  ctx: AppContext;
  limits: HostLimits;
  ops: ProDeskOperationSet;
  run: RunOptions<Pro>;
}

export const COOKIE = 'fd_pro_session';

/** Who a dashboard result is for: the session that made it (a digest of its token), so the next owner signed in on the browser never sees it. */
export const sessionHolder = (token: string): Holder => holderOf('dashboard session', token);

const secure = (ctx: AppContext) => ctx.config.publicUrl.startsWith('https://');

/** Where the dashboard keeps what a form did for the page it redirects to; the next form's result replaces it. */
export const dashResults = (ctx: AppContext) => new ShownOnce(ctx.config.keySealer, { name: 'fd_dash_done', path: '/dashboard', secure: secure(ctx) });

/** Where sign-up keeps the new business's first key for its welcome page: a slot of its own, so no dashboard form's result replaces it. */
export const firstKeySlot = (ctx: AppContext) => new ShownOnce(ctx.config.keySealer, { name: 'fd_first_key', path: '/dashboard/welcome', secure: secure(ctx) });

/** The form token of a session: only a page of that session can know it (sessions are never in a page). */
export const csrfOf = (session: string) => createHash('sha256').update(`csrf:${session}`).digest('base64url');

/** The signed-in business and its session token, or null. */
export async function sessionOf(d: DashboardDeps, req: Request): Promise<{ pro: Pro; token: string } | null> {
  const token = cookieValue(req, COOKIE);
  const pro = token ? await dashboardOwner(d.ctx.db, token, d.ctx.clock()) : undefined;
  return pro && token ? { pro, token } : null;
}

/**
 * A form that changes the business runs the operation the API runs, through the same runner
 * (limits, checks, fence). `words` puts a refusal's sentence, written for assistants, in the
 * owner's words; `once`, a key the form carries, makes a write run once however often it is sent.
 */
export async function runForm<O extends AnyOperation<Pro>>(
  d: DashboardDeps,
  form: { op: O; input: unknown; words?: (message: string) => string; once?: string | undefined },
  req: Request,
  pro: Pro,
): Promise<AnswerOf<O>> {
  try {
    const call = { op: form.op, input: form.input, req, principal: pro, ...(form.once ? { idempotencyKey: form.once } : {}) };
    return (await runOperation(call, { ...d.run, clientName: 'the dashboard' })).result;
  } catch (err) {
    if (form.words && err instanceof AppError) err.message = form.words(err.message);
    throw err;
  }
}
