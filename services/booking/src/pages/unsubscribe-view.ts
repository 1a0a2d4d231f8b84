import { UNSUBSCRIBE_PAGE } from '@frontdesk/domain';
import { html, type Html } from '@frontdesk/http';

/** The unsubscribe page (`/unsubscribe/<token>`): a question and one button, or what was done. */
export function unsubscribeView(v: { token: string; proName: string; done: boolean }): Html {
  if (v.done) return html`<p>${UNSUBSCRIBE_PAGE.done(v.proName)}</p>`;
  return html`<p>${UNSUBSCRIBE_PAGE.ask(v.proName)}</p>
    <form method="post" action="/unsubscribe/${v.token}">
      <button type="submit">${UNSUBSCRIBE_PAGE.button}</button>
    </form>`;
}

/** A link that names nothing. */
export const unsubscribeGone = (): Html => html`<p class="error">${UNSUBSCRIBE_PAGE.gone}</p>`;
