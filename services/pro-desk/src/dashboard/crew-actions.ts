import type { Request, RequestHandler } from 'express';
import {
  crewCalendarMade,
  crewHoursOnDashboard,
  crewRenamedOnDashboard,
  crewEmailOnDashboard,
  crewTimeOffOnDashboard,
  formatLabel,
  inOwnerWords,
  jobGivenOnDashboard,
  pickAnotherCrew,
} from '@frontdesk/domain';
import { newCrewCalendarAddress } from '@frontdesk/use-cases';
import { formField, withinRequest } from '@frontdesk/http';
import { jobForm } from './actions';
import { assignJobBody, crewBody, crewOfPage, crewsBody, removeCrewBody } from './crew-pages';
import type { DashboardDeps } from './deps';
import { SETTINGS_FORMS, readTimeOff } from './forms';
import { doneAt, type Done, type Signed } from './layout';
import { dashForm, nothingToFind, runSaying, type Posted } from './route-shapes';
import { CREW_LABELS, crewLink, type CrewPart } from './views/crews';

/**
 * The crews forms (POST, behind `signedInForm`): each runs the crew operation the API runs
 * (add_crew, update_crew, add_time_off with the crew, remove_crew, assign_job), or for a
 * crew's calendar address the use case, and answers 303 to the page of its result. The
 * operations' sentences are written for assistants; the page says them in the owner's words.
 */

/** Runs a crew operation for the signed-in business; a refusal's sentence is put in the owner's words. */
const runCrewOp = runSaying(inOwnerWords);

export const postAddCrew = (d: DashboardDeps): RequestHandler =>
  dashForm({
    title: 'Crews',
    labels: CREW_LABELS.add,
    section: '/dashboard/crews',
    find: nothingToFind,
    async act(_none, { values, req, res }) {
      const added = await runCrewOp(d, d.ops.add_crew, { name: values.name ?? '' }, req);
      return doneAt(d, res, crewLink(added.crew_id), { text: added.message });
    },
    page: ({ s, values, req, problem }) => crewsBody(d, s, { req, refused: { part: 'add', values, problem } }),
  });

/** The crew a crews form's address names (this business's only). */
const crewOfForm = (d: DashboardDeps) => async (s: Signed, req: Request) => (await crewOfPage(d, s, req)).crew;

/** A form on a crew's page: the crew is found first (this business's only), then its operation runs; a refusal shows the page again as typed. */
const crewForm = (d: DashboardDeps, part: CrewPart, act: (crew: { id: string; name: string }, o: Posted) => Promise<Done>): RequestHandler =>
  dashForm({
    title: 'Crew',
    labels: CREW_LABELS[part],
    section: '/dashboard/crews',
    find: crewOfForm(d),
    act: async (crew, o) => doneAt(d, o.res, `${crewLink(crew.id)}#${part}-section`, await act(crew, o)),
    page: ({ s, values, req, problem }) => crewBody(d, s, { req, refused: { part, values, problem } }),
  });

export const postCrewName = (d: DashboardDeps): RequestHandler =>
  crewForm(d, 'name', async (crew, { values, req }) => {
    const saved = await runCrewOp(d, d.ops.update_crew, { crew_id: crew.id, name: values.name ?? '' }, req);
    return { text: crewRenamedOnDashboard(saved.name) };
  });

export const postCrewEmail = (d: DashboardDeps): RequestHandler =>
  crewForm(d, 'email', async (crew, { values, req }) => {
    const saved = await runCrewOp(d, d.ops.update_crew, { crew_id: crew.id, email: (values.email ?? '').trim() || null }, req);
    return { text: crewEmailOnDashboard(saved.name, saved.email) };
  });

/** Its own hours per weekday (as the business's hours form reads them), or back to the business's. */
export const postCrewHours = (d: DashboardDeps): RequestHandler =>
  crewForm(d, 'hours', async (crew, { values, req }) => {
    const hours = values.hours === 'business' ? null : SETTINGS_FORMS.hours!.read(values).working_hours;
    const saved = await runCrewOp(d, d.ops.update_crew, { crew_id: crew.id, working_hours: hours }, req);
    return { text: crewHoursOnDashboard(saved.name, saved.own_hours) };
  });

export const postCrewActive = (d: DashboardDeps): RequestHandler =>
  crewForm(d, 'active', async (crew, { values, req }) => {
    const saved = await runCrewOp(d, d.ops.update_crew, { crew_id: crew.id, active: values.active === 'yes' }, req);
    return { text: inOwnerWords(saved.message) };
  });

export const postCrewTimeOff = (d: DashboardDeps): RequestHandler =>
  crewForm(d, 'time-off', async (crew, { values, req }) => {
    const input = { ...readTimeOff(values), crew_id: crew.id };
    const { affected_jobs: affected } = await runCrewOp(d, d.ops.add_time_off, input, req);
    return { text: crewTimeOffOnDashboard(crew.name), affected };
  });

/** A crew's own calendar address, shown once from a sealed reference: a reload shows the same one and never makes another. */
export const postCrewCalendar = (d: DashboardDeps): RequestHandler =>
  crewForm(d, 'calendar', async (crew, { s, req }) => {
    const token = await withinRequest(req, () => newCrewCalendarAddress(d.ctx.db, s.pro.id, crew.id, d.ctx.clock()));
    const value = `${d.ctx.config.publicUrl}/calendar/${token}.ics`;
    const label = `${crew.name}'s calendar address (copy it now; it is shown only on this page, for a few minutes):`;
    return { text: crewCalendarMade(crew.name), secret: { id: 'crew-calendar-url', label, value } };
  });

export const postRemoveCrew = (d: DashboardDeps): RequestHandler =>
  dashForm({
    title: 'Remove this crew?',
    labels: CREW_LABELS.remove,
    section: '/dashboard/crews',
    find: crewOfForm(d),
    async act(crew, { values, req, res }) {
      const to = (values.reassign_to ?? '').trim();
      const removed = await runCrewOp(d, d.ops.remove_crew, { crew_id: crew.id, ...(to ? { reassign_to: to } : {}) }, req);
      return doneAt(d, res, '/dashboard/crews', { text: removed.message });
    },
    page: async ({ s, values, req, problem }) =>
      (await removeCrewBody(d, s, { req, problem, ...(values.reassign_to ? { chosen: values.reassign_to } : {}) })).body,
  });

/** Gives a job to another crew at the same time (assign_job); a refusal names what is in the way, with the crew picked still picked. */
export const postAssignJob = (d: DashboardDeps): RequestHandler =>
  jobForm(d, {
    title: 'Give this job to another crew',
    labels: { crew_id: 'Give the job to' },
    async act(s, job, req, values) {
      const to = formField(values, 'crew_id');
      if (!to) throw pickAnotherCrew();
      const moved = await runCrewOp(d, d.ops.assign_job, { booking_id: job.id, crew_id: to }, req);
      return jobGivenOnDashboard(job.customer_name, formatLabel(job.starts_at, s.pro.timezone, d.ctx.clock()), moved.from_crew_name, moved.crew_name);
    },
    page: (s, job, req, problem) => assignJobBody(d, s, job, { problem, chosen: formField(req.body, 'crew_id') }),
  });
