import type { RequestHandler } from 'express';
import { SEARCH_NEEDS_ROOMS } from '@frontdesk/domain';
import { inputFromQuery, sendView } from '@frontdesk/http';
import { jobText } from './job-fields';
import { call, refusal, type PageDeps, customerProblem } from './page-call';
import { foundView, searchAgain, type Search } from './find-view';

const LABELS = { zip: 'Your ZIP code', bedrooms: 'Bedrooms', bathrooms: 'Bathrooms' };

/**
 * `/find?zip=…`: the cleaners serving a ZIP, as find_cleaners ranks them, each with a link to
 * its booking page. Without the size of the home, or refused, the search form again with what
 * was typed and why.
 */
export const findPage =
  (d: PageDeps): RequestHandler =>
  async (req, res) => {
    const q = req.query as Record<string, unknown>;
    const job = jobText(q);
    const zip = typeof q.zip === 'string' ? q.zip.trim().slice(0, 10) : '';
    const search: Search = { zip, bedrooms: job.bedrooms, bathrooms: job.bathrooms };
    if (job.bedrooms === undefined || job.bathrooms === undefined) {
      return sendView(res, 200, { title: 'Find a cleaner', body: searchAgain(search, { text: SEARCH_NEEDS_ROOMS }) });
    }
    try {
      const found = await call(d, d.ops.find_cleaners, inputFromQuery(d.ops.find_cleaners, { zip, ...job }), req);
      sendView(res, 200, { title: `Cleaners for ${zip}`, body: foundView(search, found, job) });
    } catch (err) {
      const e = refusal(res, err);
      sendView(res, e.status, { title: 'Find a cleaner', body: searchAgain(search, customerProblem(e, LABELS)) });
    }
  };
