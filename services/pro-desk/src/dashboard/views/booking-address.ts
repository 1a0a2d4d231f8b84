import { html, safeUrl, type Html } from '@frontdesk/http';

/**
 * The business's booking page address, on Today and in Settings: a read-only field anyone can
 * select and copy without script (as share links are shown), a button that copies it when
 * script runs, and a link to see the page.
 * The welcome page after sign-up leaves the button (and so any script) out.
 */
export const bookingAddress = (url: string, o: { copy: boolean } = { copy: true }): Html =>
  html`<section aria-labelledby="booking-page">
      <h2 id="booking-page">Your booking page</h2>
      <p>Customers who reach you directly can pick a time and book you there: put it on your website, in your messages and on your cards.</p>
      <label for="booking-page-url">Your booking page address</label>
      <input id="booking-page-url" type="text" readonly value="${url}" />
      ${o.copy && html`<button type="button" data-copy="booking-page-url" hidden>Copy the address</button>`}
      <p><a href="${safeUrl(url)}">See your booking page</a></p>
      <p class="note">Leads from a marketplace are answered inside that marketplace, never with this address.</p>
    </section>
    ${o.copy && html`<script src="/dashboard/copy.js"></script>`}`;
