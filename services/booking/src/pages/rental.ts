import type { Request, RequestHandler, Response } from 'express';
import { FREE_CANCEL_TEXT, NotFoundError, RENTAL_PAGE, localDate, withinFreeCancel, type ShownRentalStay } from '@frontdesk/domain';
import { html, problemLine, sendView, withinRequest, type Html } from '@frontdesk/http';
import { rentalByLink, stopTurnovers, type RentalByLink, type ShownProperty } from '@frontdesk/use-cases';
import { hostMailOf, type AppContext } from '../context';

/**
 * A host's rental page (`/rental/<token>`), the link request_turnovers answers and every mail
 * about its cleans carries: the upcoming stays and their cleans, in the business's zone, and a
 * way to stop the arrangement (a confirmation, then a POST that redirects, so a reload repeats
 * nothing). The token is the credential: once its host stopped the rental, the link opens only
 * that it was stopped (and what that cancelled, as recorded then); a link that never opened a
 * rental names nothing.
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

/** What the link opens, or undefined once the page answered that it names nothing. */
async function lookedUp(d: Deps, req: Request, res: Response, title: string): Promise<RentalByLink | undefined> {
  try {
    return await withinRequest(req, () => rentalByLink(d.db, tokenOf(req), d.clock()));
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
    gone(res, title);
    return undefined;
  }
}

/** Opens the running rental the link names, or answers that it was stopped or names nothing. */
async function opened(d: Deps, req: Request, res: Response, title: string) {
  const found = await lookedUp(d, req, res, title);
  if (!found || found.property !== null) return found; // answered already, or a running rental for the caller to show
  const { pro, stopped } = found;
  sendView(res, 200, {
    title: RENTAL_PAGE.stoppedTitle,
    body: html`<p>${RENTAL_PAGE.alreadyStopped(pro.name, localDate(stopped.at, pro.timezone), stopped.cancelled)}</p>
      <p><a href="/">Find a cleaner</a></p>`,
  });
  return undefined;
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
      await withinRequest(req, () => stopTurnovers(d.db, { token, links: hostMailOf(d.config).links, now: d.clock() }));
    } catch (err) {
      // Stopped already (the form sent again), or no such rental: the page after it says which.
      if (!(err instanceof NotFoundError)) throw err;
    }
    res.redirect(303, `/rental/${token}/stopped`);
  };

/** What stopping did, as it was recorded then: only for a rental this link's host stopped. */
export const getStoppedPage =
  (d: Deps): RequestHandler =>
  async (req, res) => {
    const found = await lookedUp(d, req, res, RENTAL_PAGE.title);
    if (!found) return;
    if (found.property !== null) return res.redirect(303, `/rental/${tokenOf(req)}`);
    sendView(res, 200, {
      title: RENTAL_PAGE.title,
      body: html`<p role="status">${RENTAL_PAGE.stopped(found.stopped.cancelled)}</p>
        <p><a href="/">Find a cleaner</a></p>`,
    });
  };
