import type { RequestHandler } from 'express';
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
import type { DashboardDeps } from './deps';
import { doneAt, type Done } from './layout';
import { dashForm, nothingToFind, runSaying, type Posted } from './route-shapes';
import { removeWebhookBody, secretAt, webhookOfPage, webhooksBody } from './webhook-pages';
import { WEBHOOK_LABELS, type SecretShown, type WebhookPart } from './views/webhooks';
import type { Typed } from './views/typed-text';

/**
 * The webhooks forms (POST, behind `signedInForm`): each runs the webhook operation the API runs
 * (add_webhook, test_webhook, update_webhook, rotate_webhook_secret, remove_webhook; "Retry now"
 * is update_webhook with only webhook_id), and answers 303 to the webhooks page; a secret it made goes to that
 * page alone, once. A refusal shows the page again as typed, in the owner's words.
 */

/** Runs a webhook operation for the signed-in business; a refusal's sentence is put in the owner's words. */
const runWebhookOp = runSaying(webhookInOwnerWords);

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
  dashForm({
    title: 'Webhooks',
    labels: WEBHOOK_LABELS,
    section: PAGE,
    find: nothingToFind,
    async act(_none, { values, req, res }) {
      const kinds = kindsOf(values);
      const input = { url: values.url ?? '', ...(kinds ? { kinds } : {}) };
      const added = await runWebhookOp(d, d.ops.add_webhook, input, req);
      const location = doneAt(d, res, itemOf(added.webhook_id), { text: webhookAddedOnDashboard(added.url) });
      return secretAt(d, res, location, { url: added.url, value: added.secret });
    },
    page: ({ s, values, req, problem }) => webhooksBody(d, s, { req, refused: { part: 'add', values, problem } }),
  });

/** A form of one webhook: it is found first (this business's only), then acted on; a refusal shows the page with the problem at that webhook. */
const webhookForm = (
  d: DashboardDeps,
  part: WebhookPart,
  act: (w: { id: string; url: string }, o: Posted) => Promise<{ done: Done; secret?: SecretShown }>,
): RequestHandler =>
  dashForm({
    title: 'Webhooks',
    labels: WEBHOOK_LABELS,
    section: PAGE,
    find: (s, req) => webhookOfPage(d, s, req),
    async act(w, o) {
      const { done, secret } = await act(w, o);
      const location = doneAt(d, o.res, itemOf(w.id), done);
      return secret ? secretAt(d, o.res, location, secret) : location;
    },
    page: ({ s, values, req, problem }) => webhooksBody(d, s, { req, refused: { part, webhookId: String(req.params.id), values, problem } }),
  });

/**
 * Sends a test event now (test_webhook waits for the receiver); the page opens at the webhook
 * with the outcome there: when, delivered or not, and what it answered or why it failed (a
 * reload shows it again and sends nothing).
 */
export const postTestWebhook = (d: DashboardDeps): RequestHandler =>
  webhookForm(d, 'test', async ({ id, url }, { s, req }) => {
    const at = formatLabel(d.ctx.clock(), s.pro.timezone, d.ctx.clock());
    const tested = await runWebhookOp(d, d.ops.test_webhook, { webhook_id: id }, req);
    const quote = tested.answer.trim() ? { label: 'What it answered:', text: tested.answer } : undefined;
    const text = webhookTestedOnDashboard(url, { at, received: tested.received, answered: tested.message });
    return { done: { text, place: `webhook-${id}`, ...(quote ? { quote } : {}) } };
  });

export const postPauseWebhook = (d: DashboardDeps): RequestHandler =>
  webhookForm(d, 'paused', async ({ id, url }, { values, req }) => {
    const paused = values.paused === 'yes';
    await runWebhookOp(d, d.ops.update_webhook, { webhook_id: id, paused }, req);
    return { done: { text: paused ? webhookPausedOnDashboard(url) : webhookResumedOnDashboard(url) } };
  });

/** "Retry now": a failing webhook is tried at once instead of at its next wait (update_webhook with only webhook_id, as the API does it). */
export const postRetryWebhook = (d: DashboardDeps): RequestHandler =>
  webhookForm(d, 'retry', async ({ id, url }, { req }) => {
    await runWebhookOp(d, d.ops.update_webhook, { webhook_id: id }, req);
    return { done: { text: webhookRetriedOnDashboard(url) } };
  });

export const postRotateWebhookSecret = (d: DashboardDeps): RequestHandler =>
  webhookForm(d, 'secret', async ({ id, url }, { s, req }) => {
    const rotated = await runWebhookOp(d, d.ops.rotate_webhook_secret, { webhook_id: id }, req);
    const until = formatLabel(new Date(rotated.previous_secret_until), s.pro.timezone, d.ctx.clock());
    return { done: { text: webhookRotatedOnDashboard(url, until) }, secret: { url, value: rotated.secret } };
  });

export const postRemoveWebhook = (d: DashboardDeps): RequestHandler =>
  dashForm({
    title: 'Remove this webhook?',
    labels: WEBHOOK_LABELS,
    section: PAGE,
    find: (s, req) => webhookOfPage(d, s, req),
    async act(w, { req, res }) {
      const removed = await runWebhookOp(d, d.ops.remove_webhook, { webhook_id: w.id }, req);
      return doneAt(d, res, PAGE, { text: removed.message });
    },
    page: ({ s, req, problem }) => removeWebhookBody(d, s, req, problem),
  });
