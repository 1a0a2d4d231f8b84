import type { Request, RequestHandler, Response } from 'express';
import { FREE_CANCEL_TEXT, NotFoundError, RENTAL_PAGE, withinFreeCancel, type ShownRentalStay } from '@frontdesk/domain';
import { html, problemLine, sendView, withinRequest, type Html } from '@frontdesk/http';
import { hostRental, stopTurnovers, type ShownProperty } from '@frontdesk/use-cases';
import { hostMailOf, type AppContext } from '../context';

/**
 * A host's rental page (`/rental/<token>`), the link request_turnovers answers and every mail
 * about its cleans carries: the upcoming stays and their cleans, in the business's zone, and a
 * way to stop the arrangement (a confirmation, then a POST that redirects, so a reload repeats
 * nothing). The token is the credential.
 */
type Deps = Pick<AppContext, 'db' | 'clock' | 'config'>;
const tokenOf = (req: Request) => String(req.params.token ?? '');

function gone(res: Response, title: string): void {
  sendView(res, 404, {
    title,
    body: html`${problemLine({ text: RENTAL_PAGE.gone })}
      <p><a href="/">Find a cleaner</a></p>`,
  });
}

/** Opens the rental the link names, or answers that it names nothing. */
async function opened(d: Deps, req: Request, res: Response, title: string) {
  try {
    return await withinRequest(req, () => hostRental(d.db, tokenOf(req), d.clock()));
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
    gone(res, title);
    return undefined;
  }
}

function stayLine(s: ShownRentalStay): Html {
  const clean = s.clean === 'booked' || s.clean === 'proposed' ? RENTAL_PAGE.clean[s.clean](s.label ?? '') : RENTAL_PAGE.clean[s.clean];
  return html`<li><strong>${RENTAL_PAGE.stay(s.check_in, s.checkout)}</strong><br />${clean}</li>`;
}

function rentalView(token: string, proName: string, p: ShownProperty): Html {
  const failing = p.feeds.some((f) => f.outcome === 'failing');
  return html`<h2>${p.name}</h2>
    <p>${p.address}, ${p.zip}</p>
    <p>${RENTAL_PAGE.intro(proName, p.mode === 'book')}</p>
    ${failing && html`<p class="note">${RENTAL_PAGE.calendarFailing}</p>`}
    ${
      p.stays.length
        ? html`<ul>
            ${p.stays.map(stayLine)}
          </ul>`
        : html`<p>${RENTAL_PAGE.noStays}</p>`
    }
    <p><a href="/rental/${token}/stop">${RENTAL_PAGE.stopLink}</a></p>`;
}

export const getRentalPage =
  (d: Deps): RequestHandler =>
  async (req, res) => {
    const found = await opened(d, req, res, RENTAL_PAGE.title);
    if (found) sendView(res, 200, { title: RENTAL_PAGE.title, body: rentalView(tokenOf(req), found.pro.name, found.property) });
  };

const upcomingCleans = (p: ShownProperty) => p.stays.filter((s) => s.clean === 'booked').length;

/** The booked cleans stopping would cancel past the free-cancel time (as each cancel confirmation warns), by their labels. */
const lateCleans = (p: ShownProperty, now: Date) =>
  p.stays.flatMap((s) => (s.clean === 'booked' && s.start && s.label && !withinFreeCancel(new Date(s.start), now) ? [s.label] : []));

export const getStopPage =
  (d: Deps): RequestHandler =>
  async (req, res) => {
    const found = await opened(d, req, res, RENTAL_PAGE.stopTitle);
    if (!found) return;
    const token = tokenOf(req);
    const late = lateCleans(found.property, d.clock());
    sendView(res, 200, {
      title: RENTAL_PAGE.stopTitle,
      body: html`${late.length > 0 && html`<p class="error">${RENTAL_PAGE.stopLate(found.pro.name, late)}</p>`}
        <p class="note">${FREE_CANCEL_TEXT}</p>
        <p>${RENTAL_PAGE.stopAsk(found.pro.name, upcomingCleans(found.property))}</p>
        <form method="post" action="/rental/${token}/stop"><button type="submit">${RENTAL_PAGE.stopButton}</button></form>
        <p><a href="/rental/${token}">${RENTAL_PAGE.keep}</a></p>`,
    });
  };

/** Stops, then shows what was done at its own address (a reload asks nothing again). */
export const postStop =
  (d: Deps): RequestHandler =>
  async (req, res) => {
    const token = tokenOf(req);
    try {
      const { cancelled } = await withinRequest(req, () => stopTurnovers(d.db, { token, links: hostMailOf(d.config).links, now: d.clock() }));
      res.redirect(303, `/rental/${token}/stopped?cancelled=${cancelled}`);
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
      res.redirect(303, `/rental/${token}/stopped`);
    }
  };

export const getStoppedPage =
  (d: Deps): RequestHandler =>
  async (req, res) => {
    const open = await withinRequest(req, () => hostRental(d.db, tokenOf(req), d.clock()).catch(() => undefined));
    if (open) return res.redirect(303, `/rental/${tokenOf(req)}`);
    const count = typeof req.query.cancelled === 'string' ? Number.parseInt(req.query.cancelled, 10) : Number.NaN;
    const said = Number.isInteger(count) && count >= 0 && count < 1000 ? RENTAL_PAGE.stopped(count) : RENTAL_PAGE.ended;
    sendView(res, 200, {
      title: RENTAL_PAGE.title,
      body: html`<p role="status">${said}</p>
        <p><a href="/">Find a cleaner</a></p>`,
    });
  };
