import { CODE_LIFETIME_TEXT } from '@frontdesk/domain';
import { errorLine, html, htmlPage, type Html } from '@frontdesk/http';
import type { SignInAccount } from './shared';

const hidden = (requestId: string) => html`<input type="hidden" name="request_id" value="${requestId}" />`;

/** The application asking, as a person should judge it: its name, whether we vouch for it, where the answer goes. */
export interface ShownClient {
  name: string;
  verified: boolean;
  /** The host the authorization code is sent to. */
  returnsTo: string;
}

const clientLine = (c: ShownClient): Html =>
  c.verified
    ? html`<strong>${c.name}</strong>`
    : html`<strong>${c.name}</strong> <span class="unverified">(unverified application: the name is its own claim)</span>`;

const returnLine = (c: ShownClient): Html =>
  html`<p class="note">If you allow it, the answer goes to <strong>${c.returnsTo}</strong>. Continue only if you trust that site.</p>`;

export const emailPage = (requestId: string, client: ShownClient, account: SignInAccount, error = '') =>
  htmlPage(
    'Sign in to Front Desk',
    html`${errorLine(error)}
      <p>${clientLine(client)} wants to ${account.wants}. Sign in with your email: we send you a code.</p>
      ${returnLine(client)}
      <form method="post" action="/authorize/email">
        ${hidden(requestId)}
        <label>Email <input type="email" name="email" required maxlength="200" autocomplete="email" /></label>
        <button type="submit">Send me a code</button>
      </form>`,
  );

export const codePage = (requestId: string, email: string, error = '') =>
  htmlPage(
    'Check your email',
    html`${errorLine(error)}
      <p>We sent a 6-digit code to <strong>${email}</strong>. ${CODE_LIFETIME_TEXT}</p>
      <form method="post" action="/authorize/code">
        ${hidden(requestId)}<input type="hidden" name="email" value="${email}" />
        <label>Code <input name="code" inputmode="numeric" pattern="[0-9]{6}" maxlength="6" required autocomplete="one-time-code" /></label>
        <button type="submit">Continue</button>
      </form>`,
  );

const scopeLine = (account: SignInAccount, scope: string): Html => html`<li>${account.scopes[scope as keyof SignInAccount['scopes']] ?? scope} (${scope})</li>`;

export const consentPage = (requestId: string, client: ShownClient, o: { account: SignInAccount; email: string; scopes: string[] }) =>
  htmlPage(
    `Allow ${client.name}?`,
    html`<p>Signed in as <strong>${o.email}</strong>. ${clientLine(client)} asks to:</p>
      <ul>
        ${o.scopes.map((s) => scopeLine(o.account, s))}
      </ul>
      ${returnLine(client)}
      <form method="post" action="/authorize/consent">
        ${hidden(requestId)}
        <button type="submit" name="decision" value="allow">Allow</button>
        <button type="submit" name="decision" value="deny">Deny</button>
      </form>
      <p class="note">You can revoke access from the assistant at any time.</p>`,
  );

export const errorPage = (title: string, message: string) => htmlPage(title, errorLine(message));
