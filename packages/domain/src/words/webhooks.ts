import { InvalidInputError, NotFoundError } from '../errors';

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
