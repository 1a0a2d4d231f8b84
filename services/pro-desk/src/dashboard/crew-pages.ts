import type { Request, RequestHandler } from 'express';
import { crewNotOnDashboard } from '@frontdesk/domain';
import type { Booking } from '@frontdesk/db';
import { dashboardCrews, listCrews } from '@frontdesk/use-cases';
import { html, type Html, type Problem } from '@frontdesk/http';
import type { DashboardDeps } from './deps';
import { doneOf, signedInPage, type Signed } from './layout';
import { jobOf } from './lookups';
import { planLineOf } from './plan-pages';
import { pageAbout } from './route-shapes';
import { assignJobView, crewView, crewsView, removeCrewView, type CrewRefused } from './views/crews';

/** The crews pages (GET): the list, one crew's page, removing a crew, and giving a job to another crew. */

/** The crews page, as the crews are, or with the add form as typed after a refusal. */
export async function crewsBody(d: DashboardDeps, s: Signed, o: { req: Request; refused?: CrewRefused }): Promise<Html> {
  const { crews, upcoming } = await dashboardCrews(d.ctx.db, s.pro, d.ctx.clock());
  return crewsView(s, { crews, upcoming, done: doneOf(d, o.req), ...(o.refused ? { refused: o.refused } : {}) });
}

export const crewsPage = (d: DashboardDeps): RequestHandler =>
  signedInPage(d, { section: '/dashboard/crews', render: async (s, req) => ({ title: 'Crews', body: await crewsBody(d, s, { req }) }) });

/** The crew a page's address names, with what its page shows; another business's crew is not found. */
export async function crewOfPage(d: DashboardDeps, s: Signed, req: Request) {
  const data = await dashboardCrews(d.ctx.db, s.pro, d.ctx.clock());
  const crew = data.crews.find((c) => c.id === String(req.params.id));
  if (!crew) throw crewNotOnDashboard();
  return { ...data, crew };
}

/** One crew's page, as it is, or with one form as typed after a refusal. */
export async function crewBody(d: DashboardDeps, s: Signed, o: { req: Request; refused?: CrewRefused }): Promise<{ title: string; body: Html }> {
  const { crew, crews, upcoming, feeds, timeOff } = await crewOfPage(d, s, o.req);
  const now = d.ctx.clock();
  const body = crewView(s, {
    crew,
    crews,
    upcoming: upcoming.get(crew.id) ?? 0,
    feed: feeds.get(crew.id),
    timeOff,
    publicUrl: d.ctx.config.publicUrl,
    now,
    done: doneOf(d, o.req),
    ...(o.refused ? { refused: o.refused } : {}),
  });
  return { title: crew.name, body };
}

/** A crews page that names a crew; a crew not of this business answers 404 with the sentence. */
const crewPage = (d: DashboardDeps, title: string, view: (s: Signed, req: Request) => Promise<{ title: string; body: Html }>): RequestHandler =>
  pageAbout(d, { section: '/dashboard/crews', title, render: (s, req) => view(s, req) });

export const oneCrewPage = (d: DashboardDeps): RequestHandler => crewPage(d, 'Crew', (s, req) => crewBody(d, s, { req }));

/** The confirmation of removing a crew, with the crew to give its jobs to when it has any. */
export async function removeCrewBody(d: DashboardDeps, s: Signed, o: { req: Request; problem?: Problem; chosen?: string }) {
  const { crew, crews, upcoming } = await crewOfPage(d, s, o.req);
  const others = crews.filter((c) => c.id !== crew.id && c.active);
  return {
    title: `Remove ${crew.name}?`,
    body: removeCrewView(s, {
      crew,
      others,
      upcoming: upcoming.get(crew.id) ?? 0,
      ...(o.chosen ? { chosen: o.chosen } : {}),
      ...(o.problem ? { problem: o.problem } : {}),
    }),
  };
}

export const removeCrewPage = (d: DashboardDeps): RequestHandler => crewPage(d, 'Remove this crew?', (s, req) => removeCrewBody(d, s, { req }));

/** A job's crew page: who does it, and the other crews to give it to. */
export async function assignJobBody(d: DashboardDeps, s: Signed, job: Booking, o: { problem?: Problem; chosen?: string } = {}): Promise<Html> {
  const { crews } = await listCrews(d.ctx.db, s.pro.id, d.ctx.clock());
  return assignJobView(s, job, { crews, now: d.ctx.clock(), ...o });
}

export const assignJobPage = (d: DashboardDeps): RequestHandler => {
  const title = 'Give this job to another crew';
  return pageAbout(d, {
    section: '/dashboard/schedule',
    title,
    async render(s, req) {
      const job = await jobOf(d, s, req);
      return { title, body: html`${await planLineOf(d, s, job)}${await assignJobBody(d, s, job)}` };
    },
  });
};
