import {
  EVENT_KINDS,
  MAX_WEBHOOKS,
  WEBHOOK_PREVIOUS_SECRET_HOURS,
  WEBHOOK_TEST_TIMEOUT_SECONDS,
  answer,
  bool,
  formatLocalIso,
  idSchema,
  int,
  listOf,
  nullable,
  oneOf,
  singleLine,
  str,
  webhookAddedMessage,
  webhookRemovedMessage,
  webhookRotatedMessage,
  webhookTestAnswer,
  fields,
  boolean,
  NO_INPUT,
  type Static,
  type TProperties,
} from '@frontdesk/domain';
import type { WebhookState } from '@frontdesk/db';
import {
  addWebhook,
  currentWebhookSecret,
  listWebhooks,
  removeWebhook,
  rotateWebhookSecret,
  testWebhook,
  updateWebhook,
  type WebhookSender,
} from '@frontdesk/use-cases';
import { createWebhookSender } from '@frontdesk/workers';
import { OVERWRITES, READS, REMOVES, WRITES, type KeptAnswer } from '@frontdesk/http';
import type { AppContext } from '../context';
import { defineOperation } from './define';

/** A webhook as list_webhooks and the other webhook operations show it (never its secret). */
export const webhookSchema = answer({
  webhook_id: str,
  url: str,
  kinds: nullable(listOf(str)),
  state: oneOf(['active', 'paused', 'failing']),
  secret_ends_with: str,
  last_success_at: nullable(str),
  last_failure_at: nullable(str),
  last_failure: nullable(str),
  behind: int,
  oldest_owed_at: nullable(str),
  next_try_at: nullable(str),
  cursor: int,
});

const at = (d: Date | null, tz: string) => (d === null ? null : formatLocalIso(d, tz));

export function presentWebhook(w: WebhookState, tz: string): Static<typeof webhookSchema> {
  return {
    webhook_id: w.id,
    url: w.url,
    kinds: w.kinds,
    state: w.paused ? 'paused' : w.failing_since ? 'failing' : 'active',
    secret_ends_with: w.secret_hint,
    last_success_at: at(w.last_success_at, tz),
    last_failure_at: at(w.last_failure_at, tz),
    last_failure: w.last_failure,
    behind: w.behind,
    oldest_owed_at: at(w.oldest_owed_at, tz),
    next_try_at: w.behind > 0 && !w.paused ? at(w.next_attempt_at, tz) : null,
    cursor: w.delivered_seq,
  };
}

/** Plain http to this machine is taken only while the host itself is on http (`pnpm start`, tests). */
export const rulesOf = (ctx: AppContext) => ({ hostIsHttp: ctx.config.publicUrl.startsWith('http:') });

const webhookId = idSchema();
const url = singleLine({ minLength: 1, maxLength: 2000 });
// The kinds are judged by checkEventKinds, whose refusal lists them: an enum here would cost
// every conversation the whole list twice.
const kinds = listOf(singleLine({ minLength: 1, maxLength: 40 }), { maxItems: EVENT_KINDS.length, description: "updates' kinds; [] or none: all." });
/** The input of an operation on one webhook: its id, and these fields. */
const one = <P extends TProperties>(extra: P) => fields({ webhook_id: webhookId, ...extra }, ['webhook_id']);

export const listWebhooksOperation = (ctx: AppContext) =>
  defineOperation({
    name: 'list_webhooks',
    tag: 'webhooks',
    title: 'List webhooks',
    description: 'Lists webhooks: state, last success and failure, events behind.',
    method: 'GET',
    input: NO_INPUT,
    output: answer({ webhooks: listOf(webhookSchema) }),
    ...READS,
    async handler(_input, { principal: pro }) {
      return { webhooks: (await listWebhooks(ctx.db, pro.id)).map((w) => presentWebhook(w, pro.timezone)) };
    },
  });

/**
 * A retried add or rotation (same idempotency key) is answered again without the secret ever
 * being stored in the answer kept for it: the secret is read, sealed, from the endpoint itself.
 */
const secretKeptOut = (ctx: AppContext): KeptAnswer => ({
  keep: ({ secret: _secret, ...rest }: { secret?: string }) => rest,
  async replay(kept) {
    return { ...kept, secret: await currentWebhookSecret(ctx.db, (kept as { webhook_id: string }).webhook_id, ctx.config.keySealer) };
  },
});

export const addWebhookOperation = (ctx: AppContext) =>
  defineOperation({
    name: 'add_webhook',
    tag: 'webhooks',
    title: 'Add a webhook',
    description: `Sends events from now on to an https URL, signed, in order, until received (at most ${MAX_WEBHOOKS}). Secret shown once. Confirm first.`,
    method: 'POST',
    input: fields({ url, kinds }, ['url']),
    output: answer({ ...webhookSchema.properties, secret: str, message: str }),
    ...WRITES,
    openWorld: true,
    async handler(input, { principal: pro, now }) {
      const { webhook, secret } = await addWebhook(ctx.db, pro.id, input, { ...rulesOf(ctx), sealer: ctx.config.keySealer, now });
      return { ...presentWebhook(webhook, pro.timezone), secret, message: webhookAddedMessage(webhook.url) };
    },
    retry: secretKeptOut(ctx),
  });

export const updateWebhookOperation = (ctx: AppContext) =>
  defineOperation({
    name: 'update_webhook',
    tag: 'webhooks',
    title: 'Change a webhook',
    description: 'Changes url, kinds or paused (it catches up when resumed); webhook_id alone retries a failing one now. Confirm first.',
    method: 'POST',
    input: one({ url, kinds, paused: boolean() }),
    output: webhookSchema,
    ...OVERWRITES,
    idempotent: true,
    async handler(input, { principal: pro, now }) {
      return presentWebhook(await updateWebhook(ctx.db, pro.id, input, { ...rulesOf(ctx), now }), pro.timezone);
    },
  });

export const removeWebhookOperation = (ctx: AppContext) =>
  defineOperation({
    name: 'remove_webhook',
    tag: 'webhooks',
    title: 'Remove a webhook',
    description: 'Stops and forgets a webhook. Confirm first.',
    method: 'POST',
    input: one({}),
    output: answer({ removed: bool, webhook_id: str, message: str }),
    ...REMOVES,
    async handler(input, { principal: pro }) {
      const { url: removed } = await removeWebhook(ctx.db, pro.id, input.webhook_id);
      return { removed: true, webhook_id: input.webhook_id, message: webhookRemovedMessage(removed) };
    },
  });

export const rotateWebhookSecretOperation = (ctx: AppContext) =>
  defineOperation({
    name: 'rotate_webhook_secret',
    tag: 'webhooks',
    title: 'New webhook secret',
    description: `New secret, shown once; the old one also signs for ${WEBHOOK_PREVIOUS_SECRET_HOURS} h. Confirm first.`,
    method: 'POST',
    input: one({}),
    output: answer({ ...webhookSchema.properties, secret: str, previous_secret_until: str, message: str }),
    ...OVERWRITES,
    async handler(input, { principal: pro, now }) {
      const { webhook, secret, previousUntil } = await rotateWebhookSecret(ctx.db, pro.id, input.webhook_id, { sealer: ctx.config.keySealer, now });
      const until = formatLocalIso(previousUntil, pro.timezone);
      return { ...presentWebhook(webhook, pro.timezone), secret, previous_secret_until: until, message: webhookRotatedMessage(until) };
    },
    retry: secretKeptOut(ctx),
  });

export const testWebhookOperation = (ctx: AppContext) => {
  let sender: WebhookSender | undefined;
  return defineOperation({
    name: 'test_webhook',
    tag: 'webhooks',
    title: 'Test a webhook',
    description: 'Sends a ping now; says what the receiver answered.',
    method: 'POST',
    input: one({}),
    output: answer({ webhook_id: str, url: str, received: bool, status: nullable(int), answer: str, message: str }),
    ...WRITES,
    idempotent: true,
    openWorld: true,
    async handler(input, { principal: pro, now }) {
      sender ??= createWebhookSender({ allowLoopback: rulesOf(ctx).hostIsHttp, keepAlive: false, timeoutMs: WEBHOOK_TEST_TIMEOUT_SECONDS * 1000 });
      const { url: sentTo, outcome } = await testWebhook(ctx.db, pro.id, input.webhook_id, { sealer: ctx.config.keySealer, sender, now });
      return {
        webhook_id: input.webhook_id,
        url: sentTo,
        received: outcome.ok,
        status: outcome.status,
        answer: outcome.answer,
        message: outcome.status === null ? (outcome as { reason: string }).reason : webhookTestAnswer(outcome.status),
      };
    },
  });
};
