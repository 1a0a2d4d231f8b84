import { EVENT_KINDS, EVENT_KIND_NAMES, MAX_WEBHOOKS, formatLabel } from '@frontdesk/domain';
import type { WebhookState } from '@frontdesk/db';
import { html, inputField, problemLine, type FieldLabels, type Html, type Problem } from '@frontdesk/http';
import { count, csrfField, listAndDetail, postButton, type Done, type Signed } from '../layout';
import { doneNotice } from './notices';
import { typedText, type Typed } from './typed-text';

/**
 * Webhooks (`/dashboard/webhooks`): where the business's events are sent, each address with
 * the events it gets, whether it is sending, paused or failing (and why), when it last
 * received one and how many wait; and the forms: add an address (its secret shown once), send
 * a test event, pause or resume, retry a failing one now, a new secret, remove it.
 */

export type WebhookPart = 'add' | 'test' | 'paused' | 'retry' | 'secret';

/** A refused webhook form: which one (and for which webhook), what was typed, the problem in the owner's words. */
export interface WebhookRefused {
  part: WebhookPart;
  webhookId?: string;
  values: Typed;
  problem: Problem;
}

/** A secret made by the last form, shown on the next page only (a reload no longer has it). */
export interface SecretShown {
  url: string;
  value: string;
}

export const WEBHOOK_LABELS: FieldLabels = { url: 'Address of your receiver', kinds: 'Which events' };

/** Where the page and each webhook's forms live. */
export const webhookLink = (id: string, part: WebhookPart | 'remove') => `/dashboard/webhooks/${encodeURIComponent(id)}/${part}`;

/** The events an address gets, in a line. */
export const kindsLine = (kinds: string[] | null): string =>
  kinds === null ? 'All events' : kinds.map((k) => EVENT_KIND_NAMES[k as (typeof EVENT_KINDS)[number]] ?? k).join(' · ');

/** Whether it is sending, paused or failing, and why, in the owner's words. */
function stateOf(s: Signed, w: WebhookState, now: Date): Html {
  const at = (d: Date) => formatLabel(d, s.pro.timezone, now);
  if (w.paused) return html`<p><strong>Paused.</strong> Events wait here and are sent, in order, when you resume it.</p>`;
  const next = w.behind > 0 ? html` Next try: ${at(w.next_attempt_at)}.` : '';
  if (w.failing_since)
    return html`<p class="error"><strong>Failing</strong> since ${at(w.failing_since)}: ${w.last_failure ?? ''}</p>
      <p>Front Desk keeps trying and sends what it missed, in order, once it answers.${next}</p>`;
  if (w.attempts > 0 && w.last_failure) return html`<p><strong>Sending</strong>, but the last try failed: ${w.last_failure}${next}</p>`;
  return html`<p><strong>Sending.</strong></p>`;
}

function webhookItem(s: Signed, w: WebhookState, o: { now: Date; done: Done | null; refused?: WebhookRefused }): Html {
  const at = (d: Date) => formatLabel(d, s.pro.timezone, o.now);
  const problem = o.refused?.webhookId === w.id ? o.refused.problem : undefined;
  const failing = !w.paused && (w.failing_since !== null || w.attempts > 0);
  return html`<li class="webhook" id="webhook-${w.id}">
    <h3>${typedText(w.url)}</h3>
    ${o.done?.place === `webhook-${w.id}` && doneNotice(o.done)} ${problemLine(problem)} ${stateOf(s, w, o.now)}
    <p>Events: ${kindsLine(w.kinds)}</p>
    <p>
      ${w.last_success_at ? `Last event received: ${at(w.last_success_at)}` : 'Nothing received yet'} ·
      ${w.behind === 0 ? 'no events waiting' : `${count(w.behind, 'event')} waiting`}
    </p>
    <p class="note">Its secret ends in …${w.secret_hint}.</p>
    <div class="job-actions">
      ${postButton(s, { action: webhookLink(w.id, 'test'), label: 'Send a test event' })}
      ${failing && postButton(s, { action: webhookLink(w.id, 'retry'), label: 'Retry now' })}
      ${postButton(s, { action: webhookLink(w.id, 'paused'), label: w.paused ? 'Resume' : 'Pause', hidden: { paused: w.paused ? 'no' : 'yes' } })}
      ${postButton(s, { action: webhookLink(w.id, 'secret'), label: 'Make a new secret' })}
      <p><a href="${webhookLink(w.id, 'remove')}">Remove this webhook</a></p>
    </div>
  </li>`;
}

/** The events to send: all, or the ones ticked. */
function eventsChoice(values: Typed, problem: Problem | undefined): Html {
  const only = values.events === 'chosen';
  const wrong = problem?.field === 'kinds';
  return html`<fieldset ${wrong && html` aria-describedby="f-kinds-error"`}>
    <legend>Which events</legend>
    <p>
      <label><input type="radio" name="events" value="all" ${!only && html` checked`} /> All events, and any new kind of event to come</label>
    </p>
    <p>
      <label><input type="radio" name="events" value="chosen" ${only && html` checked`} /> Only the ticked ones:</label>
    </p>
    ${EVENT_KINDS.map(
      (k) =>
        html`<p class="kind">
          <label><input type="checkbox" name="event_${k}" value="1" ${values[`event_${k}`] === '1' && html` checked`} /> ${EVENT_KIND_NAMES[k]}</label>
        </p>`,
    )}
    ${wrong && html`<span class="error" id="f-kinds-error">${problem?.text}</span>`}
  </fieldset>`;
}

function addForm(s: Signed, o: { full: boolean; refused?: WebhookRefused }): Html {
  const refused = o.refused?.part === 'add' ? o.refused : undefined;
  const values = refused?.values ?? {};
  if (o.full)
    return html`<section aria-labelledby="add" id="add-section">
      <h2 id="add">Add a webhook</h2>
      <p>Your business has ${MAX_WEBHOOKS} webhooks, the most it can have; remove one to add another.</p>
    </section>`;
  return html`<section aria-labelledby="add" id="add-section">
    <h2 id="add">Add a webhook</h2>
    <p class="note">
      Give the address, starting with https://, where your receiver listens. Front Desk sends each event there as it happens, signed with a secret shown once
      when you add it. Your receiver answers within 10 seconds; anything it misses is sent again, in order, until it answers.
    </p>
    ${problemLine(refused?.problem)}
    <form method="post" action="/dashboard/webhooks" novalidate>
      ${csrfField(s)}
      ${inputField(
        {
          label: 'Address of your receiver',
          name: 'url',
          value: values.url ?? '',
          type: 'url',
          attrs: html` maxlength="2000" required inputmode="url" autocomplete="off"`,
        },
        refused?.problem,
      )}
      ${eventsChoice(values, refused?.problem)}
      <button type="submit">Add this webhook</button>
    </form>
  </section>`;
}

/** The secret a form just made, with what to do with it; after a reload, a word that it is gone. */
function secretNotice(d: { secret: SecretShown | null; madeOne: boolean }): Html {
  if (d.secret)
    return html`<div class="done">
      <p>The secret for <bdi>${d.secret.url}</bdi> (copy it now: it is shown only this once, and is gone when you reload or leave this page):</p>
      <p class="key" id="webhook-secret">${d.secret.value}</p>
    </div>`;
  if (d.madeOne) return html`<p class="note">The secret was shown once and is hidden now. If you did not copy it, make a new secret below.</p>`;
  return html``;
}

/** What the webhooks page shows. */
export interface WebhooksPageData {
  webhooks: WebhookState[];
  now: Date;
  done: Done | null;
  secret: SecretShown | null;
  /** The last form made a secret (shown on the first page after it, gone on a reload). */
  madeSecret: boolean;
  refused?: WebhookRefused;
}

/** The list of webhooks beside the form that adds one; a result about one webhook (a test's outcome) is shown in its entry, where the page opens. */
export function webhooksView(s: Signed, d: WebhooksPageData): Html {
  const list = d.webhooks.length
    ? html`<ul class="webhook-list">
        ${d.webhooks.map((w) => webhookItem(s, w, { now: d.now, done: d.done, ...(d.refused ? { refused: d.refused } : {}) }))}
      </ul>`
    : html`<p>No webhooks yet. Add one to have your own tools (a CRM, a text-message service, Zapier) hear about each booking as it happens.</p>`;
  const placed = d.done?.place && d.webhooks.some((w) => `webhook-${w.id}` === d.done?.place);
  return html`${!placed && doneNotice(d.done)} ${secretNotice({ secret: d.secret, madeOne: d.madeSecret })}
  ${d.refused && d.refused.part !== 'add' && !d.webhooks.some((w) => w.id === d.refused?.webhookId) && problemLine(d.refused.problem)}
  ${listAndDetail(
    html`<section aria-labelledby="webhooks">
      <h2 id="webhooks">Where your events go</h2>
      ${list}
    </section>`,
    addForm(s, { full: d.webhooks.length >= MAX_WEBHOOKS, ...(d.refused ? { refused: d.refused } : {}) }),
    { even: true },
  )}`;
}

/** The confirmation before a webhook is removed. */
export function removeWebhookView(s: Signed, w: WebhookState, problem?: Problem): Html {
  return html`${problemLine(problem)}
    <p>
      Front Desk stops sending to <bdi>${w.url}</bdi> and forgets it${w.behind > 0 ? html`, with the ${count(w.behind, 'event')} still waiting for it` : ''}. To
      receive events there again you add it anew, with a new secret.
    </p>
    ${postButton(s, { action: webhookLink(w.id, 'remove'), label: 'Remove this webhook' })}
    <p><a href="/dashboard/webhooks">Keep it</a></p>`;
}
