import { InvalidInputError, NotFoundError } from '../errors';
import type { EventKind } from '../answer-schemas';

/** What a business reads about its webhooks: refusals, the feed's lines, and the operations' answers. */

export const webhookUrlNotUrl = () => new InvalidInputError('url must be a full web address starting with https://.');
export const webhookUrlNotHttps = () =>
  new InvalidInputError(
    'url must start with https:// (plain http is taken only for this machine, 127.0.0.1 or localhost, while Front Desk itself runs on http).',
  );
export const webhookUrlShape = () => new InvalidInputError('url must not hold a user name, password or #fragment.');
export const webhookUrlNotPublic = (host: string) =>
  new InvalidInputError(`url must reach a public address; ${host} is a private or local one. Use the address the internet reaches your receiver at.`);
export const webhookUrlTaken = () => new InvalidInputError('This business already sends to that url; update that webhook instead.');
export const tooManyWebhooks = (max: number) => new InvalidInputError(`A business can have at most ${max} webhooks; remove one first.`);
export const unknownEventKinds = (kinds: string[], known: readonly string[]) =>
  new InvalidInputError(`kinds holds ${kinds.map((k) => `"${k}"`).join(', ')}, which the feed never sends; the kinds are ${known.join(', ')}.`);
export const noWebhook = (id: string) => new NotFoundError(`No webhook with id ${id} in this business; list_webhooks lists them.`);

/** Why a delivery failed, as list_webhooks and the dashboard say it. */
export const receiverAnswered = (status: number) => `The receiver answered ${status}.`;
export const receiverTimedOut = (seconds: number) => `The receiver did not answer within ${seconds} seconds.`;
export const receiverUnreachable = (reason: string) => `The receiver could not be reached: ${reason}.`;
export const receiverNotPublic = (host: string) => `${host} resolves to a private or local address, which Front Desk does not send to.`;
export const receiverRedirected = (status: number) =>
  `The receiver answered ${status} (a redirect); Front Desk does not follow redirects, so give the final address.`;

/** The feed's lines about an endpoint. */
export const webhookFailingMessage = (url: string, attempts: number, reason: string) =>
  `Webhook ${url} has failed ${attempts} times in a row (${reason}). Front Desk keeps retrying and it catches up from where it stopped once it answers; check the receiver, or press "Retry now" after fixing it.`;
export const webhookRecoveredMessage = (url: string) => `Webhook ${url} answers again; it is catching up on what it missed, in order.`;
export const webhookGoneMessage = (url: string) => `Webhook ${url} answered 410 Gone, so it was removed; add it again to receive events there.`;

/** What the webhook operations answer. */
export const webhookAddedMessage = (url: string) =>
  `Events will be sent to ${url}. Keep the secret now: it is shown only this once, and the receiver needs it to check each event's webhook-signature.`;
export const webhookRotatedMessage = (until: string) =>
  `A new secret is live; shown only this once. Until ${until} each event carries signatures by both the old and the new secret, so update the receiver before then.`;
export const webhookRemovedMessage = (url: string) => `Webhook ${url} was removed; nothing more is sent there.`;
export const webhookPingMessage = () => 'A test event from Front Desk: if you can read this, the webhook works.';
export const webhookTestAnswer = (status: number) =>
  `The receiver answered ${status}${status >= 200 && status < 300 ? ': it works.' : ', so it would not count as received.'}`;

/** Each kind of event as the dashboard names it (a checkbox, a webhook's list of kinds). */
export const EVENT_KIND_NAMES: Record<EventKind, string> = {
  'booking.created': 'A job is booked',
  'booking.cancelled': 'A job is cancelled',
  'booking.no_show': 'A job is reported as a no-show',
  'booking.rescheduled': 'A job is moved to another time',
  'booking.assigned': 'A job is given to another crew',
  'series.created': 'A recurring plan is set up',
  'series.cancelled': 'A recurring plan is cancelled',
  'series.visit_skipped': 'A visit of a recurring plan is skipped',
  'follow_up.due': 'A follow-up with a lead is due',
  'jobs.today': "The day's jobs, each morning",
  'reminder.sent': 'A customer is emailed a reminder before a job',
  'review_request.sent': 'A customer is emailed a review request after a job',
  'turnover.booked': 'A turnover clean is booked from a guest stay',
  'turnover.moved': 'A turnover clean moves because its stay changed',
  'turnover.cancelled': 'A turnover clean is cancelled because its stay is gone',
  'turnover.needs_attention': 'A turnover clean needs you',
  'property.feed_failing': "A property's calendar cannot be read",
  'webhook.failing': 'A webhook keeps failing',
  'webhook.recovered': 'A failing webhook answers again',
  'webhook.removed': 'A webhook is removed because its receiver said it is gone',
};

/** The dashboard's webhooks page: what each form did, and its refusals. */
// What was done stays on the page after a reload; the secret does not (its own box says so).
export const webhookAddedOnDashboard = (url: string) =>
  `Events will be sent to ${url}. Your receiver needs its secret to check that each event came from Front Desk.`;
export const webhookRotatedOnDashboard = (url: string, until: string) =>
  `${url} has a new secret. Until ${until} each event is signed with both the old and the new secret, so give the new one to your receiver before then.`;
export const webhookPausedOnDashboard = (url: string) => `Paused ${url}: events wait here and are sent, in order, when you resume it.`;
export const webhookResumedOnDashboard = (url: string) => `Resumed ${url}: it catches up on what waited, in order.`;
export const webhookRetriedOnDashboard = (url: string) => `Trying ${url} again now: it catches up from where it stopped once it answers.`;
const NOT_ON_DASHBOARD = 'That webhook is not in your business (it may have been removed, or the link is mistyped).';
export const webhookNotOnDashboard = () => new NotFoundError(NOT_ON_DASHBOARD);
export const pickWebhookEvents = () => new InvalidInputError('Tick at least one kind of event, or choose all events.');
export const allOrTickedEvents = () =>
  new InvalidInputError('You ticked some kinds of events but chose all events: choose "Only the ticked ones" to get only those, or untick them.');

/**
 * The webhook operations' sentences as the dashboard shows them: the two that name an
 * operation or speak of the business in the third person are said as the page says them (a
 * sentence that starts with a field is named by the form's label instead).
 */
const WEBHOOK_REWORDS: readonly (readonly [RegExp, string])[] = [
  [/^No webhook with id \S+ in this business; list_webhooks lists them\.$/, NOT_ON_DASHBOARD],
  [/^This business already sends to that url; update that webhook instead\.$/, 'Your business already sends to that address.'],
];

/** A webhook operation's sentence as the owner's dashboard shows it. */
export function webhookInOwnerWords(sentence: string): string {
  return WEBHOOK_REWORDS.reduce((text, [from, to]) => text.replace(from, to), sentence);
}
/** What a test event did, said at the webhook it was sent to: when, delivered or not, and what the receiver answered or why it failed. */
export const webhookTestedOnDashboard = (url: string, t: { at: string; received: boolean; answered: string }) =>
  `Test event sent to ${url} at ${t.at}: ${t.received ? 'delivered' : 'not delivered'}. ${t.answered}`;
