import type { followUpsDue } from '@frontdesk/use-cases';
import { html, type Html } from '@frontdesk/http';

/** Leads and follow-ups (`/dashboard/leads`): quoted leads due a follow-up, each with a draft to copy. */
export function leadsView(due: Awaited<ReturnType<typeof followUpsDue>>): Html {
  const items = due.follow_ups.map((f, i) => {
    const who = f.lead.customer_first_name ?? `${f.lead.source}${f.lead.lead_ref ? ` ${f.lead.lead_ref}` : ''}`;
    return html`<article class="lead">
      <h3><bdi>${who}</bdi>: follow-up ${f.follow_up_number}</h3>
      <p class="note">${f.reply_channel}</p>
      <label for="draft-${i}">Draft</label>
      <textarea id="draft-${i}" rows="5" readonly>${f.draft}</textarea>
      <button type="button" data-copy="draft-${i}" hidden>Copy the draft</button>
    </article>`;
  });
  return html`<section aria-labelledby="due">
      <h2 id="due">Follow-ups due (${due.follow_ups.length})</h2>
      ${items.length ? items : html`<p>None due now.</p>`}
      <p class="note">After you send one, tell your assistant that you did, so the next one comes due on time.</p>
    </section>
    <script src="/dashboard/copy.js"></script>`;
}

/** The copy buttons: shown only when this runs, so without script the drafts (and addresses) stay selectable text; a field copies its value, other text its words. */
export const COPY_SCRIPT = `document.querySelectorAll('[data-copy]').forEach(function (b) {
  b.hidden = false;
  b.addEventListener('click', function () {
    var t = document.getElementById(b.getAttribute('data-copy'));
    navigator.clipboard.writeText(t.value !== undefined ? t.value : t.textContent).then(function () { b.textContent = 'Copied'; });
  });
});
`;
