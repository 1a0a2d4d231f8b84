import type { RequestHandler } from 'express';
import { CHECKS_NOTE } from '@frontdesk/domain';
import { errorLine, esc, inputFromQuery, sendPage } from '@frontdesk/http';
import { call, jobText, money, refusal, type Found, type PageDeps } from './kit';

/** `/find?zip=…`: the cleaners serving a ZIP, as find_cleaners ranks them, each with a link to its booking page. */
export const findPage =
  (d: PageDeps): RequestHandler =>
  async (req, res) => {
    const q = req.query as Record<string, unknown>;
    const job = jobText(q);
    const zip = typeof q.zip === 'string' ? q.zip.trim() : '';
    try {
      const found = await call<Found>(d, d.ops.find_cleaners, inputFromQuery(d.ops.find_cleaners, { zip, ...job }), req);
      const items = found.cleaners
        .map(
          (c) => `<div class="job"><h2>${esc(c.name)}: ${money(c.total)}</h2><p>${esc(c.price.summary)}</p>
${c.next_open_times[0] ? `<p>Next open: ${esc(c.next_open_times[0].label)}</p>` : '<p>No open times in the coming week.</p>'}
${c.checks.map((k) => `<p class="note">${esc(k.summary)}</p>`).join('')}
<p><a href="/book/${esc(c.cleaner_id)}?${new URLSearchParams(job).toString()}">See times and book ${esc(c.name)}</a></p></div>`,
        )
        .join('');
      sendPage(
        res,
        200,
        `Cleaners for ${zip}`,
        `${items || `<p>${esc(found.message ?? 'No cleaner serves this ZIP yet.')}</p>`}<p class="note">${esc(CHECKS_NOTE)}</p><p><a href="/">Search again</a></p>`,
      );
    } catch (err) {
      const e = refusal(res, err);
      sendPage(res, e.status, 'Find a cleaner', `${errorLine(e.message)}<p><a href="/">Search again</a></p>`);
    }
  };
