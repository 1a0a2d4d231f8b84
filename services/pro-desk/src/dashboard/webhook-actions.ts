import type { Request, RequestHandler } from 'express';
import {
  EVENT_KINDS,
  allOrTickedEvents,
  formatLabel,
  pickWebhookEvents,
  webhookAddedOnDashboard,
  webhookInOwnerWords,
  webhookPausedOnDashboard,
  webhookResumedOnDashboard,
  webhookRetriedOnDashboard,
  webhookRotatedOnDashboard,
  webhookTestedOnDashboard,
} from '@frontdesk/domain';
import type { Pro } from '@frontdesk/db';
import { formRoute, type AnswerOf, type AnyOperation } from '@frontdesk/http';
import { navOf, noProblem, typed } from './actions';
import { runForm, type DashboardDeps } from './deps';
import { doneAt, signedOf, type Done, type Signed } from './layout';
import { removeWebhookBody, secretAt, webhookGone, webhookOfPage, webhooksBody } from './webhook-pages';
import { WEBHOOK_LABELS, type SecretShown, type Typed, type WebhookPart } from './views/webhooks';

/**
 * The webhooks forms (POST, behind `signedInForm`): each runs the webhook operation the API runs
 * (add_webhook, test_webhook, update_webhook, rotate_webhook_secret, remove_webhook; "Retry now"
 * is update_webhook with only webhook_id), and answers 303 to the webhooks page; a secret it made goes to that
 * page alone, once. A refusal shows the page again as typed, in the owner's words.
 */

/** Runs a webhook operation for the signed-in business; a refusal's sentence is put in the owner's words. */
const runWebhookOp = <O extends AnyOperation<Pro>>(d: DashboardDeps, op: O, input: unknown, req: Request): Promise<AnswerOf<O>> =>
  runForm(d, { op, input, words: webhookInOwnerWords }, req, signedOf(req).pro);

/** The kinds the add form asks for: undefined for all, else the ones ticked (at least one). */
function kindsOf(values: Typed): string[] | undefined {
  const ticked = EVENT_KINDS.filter((k) => values[`event_${k}`] === '1');
  if (values.events === 'chosen') {
    if (ticked.length === 0) throw pickWebhookEvents();
    return ticked;
  }
  if (ticked.length > 0) throw allOrTickedEvents();
  return undefined;
}

const PAGE = '/dashboard/webhooks';
const itemOf = (id: string) => `${PAGE}#webhook-${id}`;

export const postAddWebhook = (d: DashboardDeps): RequestHandler =>
  formRoute<Typed>({
    title: 'Webhooks',
    labels: WEBHOOK_LABELS,
    read: typed,
    async act(values, req, res) {
      const kinds = kindsOf(values);
      const input = { url: values.url ?? '', ...(kinds ? { kinds } : {}) };
      const added = await runWebhookOp(d, d.ops.add_webhook, input, req);
      const location = doneAt(d, res, itemOf(added.webhook_id), { text: webhookAddedOnDashboard(added.url) });
      return secretAt(d, res, location, { url: added.url, value: added.secret });
    },
    form: (values, problem, req) => webhooksBody(d, signedOf(req), { req, refused: { part: 'add', values, problem: problem ?? noProblem } }),
    nav: navOf(PAGE),
  });

/** A form of one webhook: it is found first (this business's only), then acted on; a refusal shows the page with the problem at that webhook. */
function webhookForm(
  d: DashboardDeps,
  part: WebhookPart,
  act: (o: { s: Signed; id: string; url: string; values: Typed; req: Request }) => Promise<{ done: Done; secret?: SecretShown }>,
): RequestHandler {
  return formRoute<Typed>({
    title: 'Webhooks',
    labels: WEBHOOK_LABELS,
    read: typed,
    async act(values, req, res) {
      const s = signedOf(req);
      const w = await webhookOfPage(d, s, req);
      const { done, secret } = await act({ s, id: w.id, url: w.url, values, req });
      const location = doneAt(d, res, itemOf(w.id), done);
      return secret ? secretAt(d, res, location, secret) : location;
    },
    form: (values, problem, req) =>
      webhooksBody(d, signedOf(req), { req, refused: { part, webhookId: String(req.params.id), values, problem: problem ?? noProblem } }),
    nav: navOf(PAGE),
  });
}

/** Sends a test event now; the page says what the receiver answered (a reload shows it again and sends nothing). */
export const postTestWebhook = (d: DashboardDeps): RequestHandler =>
  webhookForm(d, 'test', async ({ id, url, req }) => {
    const tested = await runWebhookOp(d, d.ops.test_webhook, { webhook_id: id }, req);
    const quote = tested.answer.trim() ? { label: 'What it answered:', text: tested.answer } : undefined;
    return { done: { text: webhookTestedOnDashboard(url, tested.message), ...(quote ? { quote } : {}) } };
  });

export const postPauseWebhook = (d: DashboardDeps): RequestHandler =>
  webhookForm(d, 'paused', async ({ id, url, values, req }) => {
    const paused = values.paused === 'yes';
    await runWebhookOp(d, d.ops.update_webhook, { webhook_id: id, paused }, req);
    return { done: { text: paused ? webhookPausedOnDashboard(url) : webhookResumedOnDashboard(url) } };
  });

/** "Retry now": a failing webhook is tried at once instead of at its next wait (update_webhook with only webhook_id, as the API does it). */
export const postRetryWebhook = (d: DashboardDeps): RequestHandler =>
  webhookForm(d, 'retry', async ({ id, url, req }) => {
    await runWebhookOp(d, d.ops.update_webhook, { webhook_id: id }, req);
    return { done: { text: webhookRetriedOnDashboard(url) } };
  });

export const postRotateWebhookSecret = (d: DashboardDeps): RequestHandler =>
  webhookForm(d, 'secret', async ({ s, id, url, req }) => {
    const rotated = await runWebhookOp(d, d.ops.rotate_webhook_secret, { webhook_id: id }, req);
    const until = formatLabel(new Date(rotated.previous_secret_until), s.pro.timezone, d.ctx.clock());
    return { done: { text: webhookRotatedOnDashboard(url, until) }, secret: { url, value: rotated.secret } };
  });

export const postRemoveWebhook = (d: DashboardDeps): RequestHandler =>
  formRoute<Typed>({
    title: 'Remove this webhook?',
    labels: WEBHOOK_LABELS,
    read: typed,
    async act(_values, req, res) {
      const w = await webhookOfPage(d, signedOf(req), req);
      const removed = await runWebhookOp(d, d.ops.remove_webhook, { webhook_id: w.id }, req);
      return doneAt(d, res, PAGE, { text: removed.message });
    },
    async form(_values, problem, req) {
      try {
        return await removeWebhookBody(d, signedOf(req), req, problem ?? noProblem);
      } catch (err) {
        return webhookGone(err);
      }
    },
    nav: navOf(PAGE),
  });
