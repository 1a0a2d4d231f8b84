import type { Request, RequestHandler, Response } from 'express';
import { webhookNotOnDashboard } from '@frontdesk/domain';
import type { WebhookState } from '@frontdesk/db';
import { listWebhooks } from '@frontdesk/use-cases';
import { ShownOnce, type Html, type Problem } from '@frontdesk/http';
import { sessionHolder, type DashboardDeps } from './deps';
import { doneOf, signedInPage, signedOf, type Signed } from './layout';
import { pageAbout } from './route-shapes';
import { removeWebhookView, webhooksView, type SecretShown, type WebhookRefused } from './views/webhooks';

/**
 * The webhooks pages (GET): the list with its forms, and the confirmation of removing one.
 * A secret a form made is shown by the first page after it only: that page drops it from the
 * browser, so a reload (or the address opened again) no longer shows it.
 */

/** Where a webhook's new secret waits for the page after the form, for the session that made it. */
export const webhookSecrets = (d: Pick<DashboardDeps, 'ctx'>) =>
  new ShownOnce(d.ctx.config.keySealer, { name: 'fd_dash_secret', path: '/dashboard/webhooks', secure: d.ctx.config.publicUrl.startsWith('https://') });

/** Keeps a secret for the page at `location` (a 303's Location) and answers that address with the secret's reference. */
export function secretAt(d: DashboardDeps, res: Response, location: string, secret: SecretShown): string {
  const ref = webhookSecrets(d).keep(res, sessionHolder(signedOf(res.req).token), secret, d.ctx.clock());
  const [where, hash] = location.split('#');
  return `${where}${where!.includes('?') ? '&' : '?'}secret=${ref}${hash ? `#${hash}` : ''}`;
}

const shownByRequest = new WeakMap<Request, SecretShown>();

/** The business's webhooks, and the page with one form as typed after a refusal. */
export async function webhooksBody(d: DashboardDeps, s: Signed, o: { req: Request; refused?: WebhookRefused }): Promise<Html> {
  return webhooksView(s, {
    webhooks: await listWebhooks(d.ctx.db, s.pro.id),
    now: d.ctx.clock(),
    done: doneOf(d, o.req),
    secret: shownByRequest.get(o.req) ?? null,
    madeSecret: typeof o.req.query.secret === 'string' && !o.refused,
    ...(o.refused ? { refused: o.refused } : {}),
  });
}

/** The webhooks page; the secret its address refers to, kept for this session, is read once and dropped from the browser. */
export const webhooksPage = (d: DashboardDeps): RequestHandler =>
  signedInPage(d, {
    section: '/dashboard/webhooks',
    async render(s, req, res) {
      const ref = typeof req.query.secret === 'string' ? req.query.secret : '';
      const secret = ref && req.method === 'GET' ? webhookSecrets(d).value<SecretShown>(req, sessionHolder(s.token), ref, d.ctx.clock()) : null;
      if (secret) {
        shownByRequest.set(req, secret);
        webhookSecrets(d).forget(res);
      }
      return { title: 'Webhooks', body: await webhooksBody(d, s, { req }) };
    },
  });

/** The webhook a page's address names; another business's is not found. */
export async function webhookOfPage(d: DashboardDeps, s: Signed, req: Request): Promise<WebhookState> {
  const found = (await listWebhooks(d.ctx.db, s.pro.id)).find((w) => w.id === String(req.params.id));
  if (!found) throw webhookNotOnDashboard();
  return found;
}

export async function removeWebhookBody(d: DashboardDeps, s: Signed, req: Request, problem?: Problem): Promise<Html> {
  return removeWebhookView(s, await webhookOfPage(d, s, req), problem);
}

export const removeWebhookPage = (d: DashboardDeps): RequestHandler => {
  const title = 'Remove this webhook?';
  return pageAbout(d, { section: '/dashboard/webhooks', title, render: async (s, req) => ({ title, body: await removeWebhookBody(d, s, req) }) });
};
