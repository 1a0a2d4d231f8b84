import type { Request, RequestHandler, Router } from 'express';
import { AppError, inOwnerWords, propertyNotOnDashboard, propertyTimesSaved } from '@frontdesk/domain';
import { acceptProposal, listCrews } from '@frontdesk/use-cases';
import { withinRequest, type Html } from '@frontdesk/http';
import { hostMailOf } from '../context';
import { runForm, type DashboardDeps } from './deps';
import { numeric } from './forms';
import { doneAt, doneOf, signedInPage, type Signed } from './layout';
import { dashForm, nothingToFind, pageAbout, runSaying, type Posted } from './route-shapes';
import {
  PROPERTY_LABELS,
  propertiesView,
  propertyLink,
  propertyView,
  removePropertyView,
  upcomingCleans,
  type PropertyRefused,
  type ShownProperty,
} from './views/properties';
import type { Typed } from './views/typed-text';

/**
 * The Properties section (issue 37): list_properties as the owner reads it, add_property,
 * update_property (times, crew, planning; then sync_property so the cleans are planned again
 * at once), sync_property ("Read the calendars now") and remove_property, each run as an
 * assistant would run it; "Accept" runs acceptProposal, which no assistant tool offers (the
 * issue asks for one tap on the dashboard). Every form answers 303 to the page of its result.
 */

const SECTION = '/dashboard/properties';
const runPropertyOp = runSaying(inOwnerWords);

async function allProperties(d: DashboardDeps, s: Signed, req: Request): Promise<ShownProperty[]> {
  return (await runForm(d, { op: d.ops.list_properties, input: {} }, req, s.pro)).properties;
}

const crewsOf = async (d: DashboardDeps, s: Signed) => (await listCrews(d.ctx.db, s.pro.id, d.ctx.clock())).crews.filter((c) => c.active);

/** The property the address names, with the others beside it: this business's only, else the owner's refusal. */
async function propertyOf(d: DashboardDeps, s: Signed, req: Request) {
  const properties = await allProperties(d, s, req);
  const property = properties.find((p) => p.property_id === String(req.params.id));
  if (!property) throw propertyNotOnDashboard();
  return { property, properties };
}

async function listBody(d: DashboardDeps, s: Signed, req: Request, refused?: PropertyRefused): Promise<Html> {
  const [properties, crews] = await Promise.all([allProperties(d, s, req), crewsOf(d, s)]);
  return propertiesView(s, { properties, crews, now: d.ctx.clock(), done: refused ? null : doneOf(d, req), ...(refused ? { refused } : {}) });
}

async function propertyBody(d: DashboardDeps, s: Signed, req: Request, refused?: PropertyRefused) {
  const [{ property, properties }, crews] = await Promise.all([propertyOf(d, s, req), crewsOf(d, s)]);
  const body = propertyView(s, { property, properties, crews, now: d.ctx.clock(), done: refused ? null : doneOf(d, req), ...(refused ? { refused } : {}) });
  return { title: property.name, body };
}

async function removeBody(d: DashboardDeps, s: Signed, req: Request, o: { problem?: PropertyRefused['problem']; ticked?: boolean } = {}) {
  const { property } = await propertyOf(d, s, req);
  return { title: `Remove ${property.name}?`, body: removePropertyView(s, { property, upcoming: upcomingCleans(property, d.ctx.clock()), ...o }) };
}

const text = (v: Typed, name: string) => (v[name] ?? '').trim();
const optional = (v: Typed, name: string) => (text(v, name) ? { [name]: text(v, name) } : {});

/** The times, crew and planning fields as update_property's (and add_property's) input; an empty crew leaves it as it is. */
const planningInput = (v: Typed) => ({
  checkout_time: text(v, 'checkout_time'),
  checkin_time: text(v, 'checkin_time'),
  ...optional(v, 'crew_id'),
  mode: v.mode ?? 'book',
});

/** The add form as add_property's input: numbers as numbers, one calendar address a line, empty contact fields left out. */
const addInput = (v: Typed) => ({
  name: v.name ?? '',
  address: v.address ?? '',
  zip: text(v, 'zip'),
  bedrooms: numeric(v.bedrooms ?? ''),
  bathrooms: numeric(v.bathrooms ?? ''),
  pets: v.pets === 'on',
  host_name: v.host_name ?? '',
  ...optional(v, 'host_phone'),
  ...optional(v, 'host_email'),
  calendar_urls: (v.calendar_urls ?? '')
    .split(/\s+/)
    .map((u) => u.trim())
    .filter(Boolean),
  ...planningInput(v),
});

const listPage = (d: DashboardDeps): RequestHandler =>
  signedInPage(d, { section: SECTION, render: async (s, req) => ({ title: 'Properties', body: await listBody(d, s, req) }) });

const propertyPage = (d: DashboardDeps): RequestHandler => pageAbout(d, { section: SECTION, title: 'Property', render: (s, req) => propertyBody(d, s, req) });

const removePage = (d: DashboardDeps): RequestHandler =>
  pageAbout(d, { section: SECTION, title: 'Remove this property?', render: (s, req) => removeBody(d, s, req) });

const postAdd = (d: DashboardDeps): RequestHandler =>
  dashForm({
    title: 'Properties',
    labels: PROPERTY_LABELS.add,
    section: SECTION,
    find: nothingToFind,
    async act(_none, { values, req, res }) {
      const added = await runPropertyOp(d, d.ops.add_property, addInput(values), req);
      // Its calendars are read at once, so the page it leads to shows the stays; a read refused (a limit) is left to the worker.
      await runPropertyOp(d, d.ops.sync_property, { property_id: added.property_id }, req).catch((err: unknown) => {
        if (!(err instanceof AppError)) throw err;
      });
      return doneAt(d, res, propertyLink(added.property_id), { text: added.message });
    },
    page: async ({ s, values, req, problem }) => ({ title: 'Properties', body: await listBody(d, s, req, { part: 'add', values, problem }) }),
  });

/** A form on a property's page: the property is found first (this business's only); a refusal shows the page again with the form as typed. */
const propertyForm = (d: DashboardDeps, o: { part: 'times' | 'sync' | 'accept'; act(p: ShownProperty, posted: Posted): Promise<string> }): RequestHandler =>
  dashForm({
    title: 'Property',
    labels: o.part === 'times' ? PROPERTY_LABELS.times : {},
    section: SECTION,
    find: async (s, req) => (await propertyOf(d, s, req)).property,
    async act(p, posted) {
      const text = await o.act(p, posted);
      return doneAt(d, posted.res, `${propertyLink(p.property_id)}#${o.part === 'times' ? 'times' : 'stays'}`, { text });
    },
    page: async ({ s, values, req, problem }) => propertyBody(d, s, req, o.part === 'times' ? { part: 'times', values, problem } : undefined),
  });

const postSync = (d: DashboardDeps): RequestHandler =>
  propertyForm(d, {
    part: 'sync',
    act: async (p, { req }) => (await runPropertyOp(d, d.ops.sync_property, { property_id: p.property_id }, req)).message,
  });

/** The times, crew and planning saved (update_property), then the calendars read (sync_property) so every clean is planned by them at once. */
const postTimes = (d: DashboardDeps): RequestHandler =>
  propertyForm(d, {
    part: 'times',
    async act(p, { values, req }) {
      const saved = await runPropertyOp(d, d.ops.update_property, { property_id: p.property_id, ...planningInput(values) }, req);
      const synced = await runPropertyOp(d, d.ops.sync_property, { property_id: p.property_id }, req);
      return propertyTimesSaved(saved.name, synced.message);
    },
  });

/** Accepts a proposed clean; a second tap, a reload or a stale page books nothing more (the use case says what it found). */
const postAccept = (d: DashboardDeps): RequestHandler =>
  propertyForm(d, {
    part: 'accept',
    async act(p, { s, req }) {
      const input = { property_id: p.property_id, stay_id: String(req.params.stay) };
      return (await withinRequest(req, () => acceptProposal(d.ctx.db, s.pro, input, { now: d.ctx.clock(), host: hostMailOf(d.ctx.config) }))).message;
    },
  });

const postRemove = (d: DashboardDeps): RequestHandler =>
  dashForm({
    title: 'Remove this property?',
    labels: PROPERTY_LABELS.remove,
    section: SECTION,
    find: async (s, req) => (await propertyOf(d, s, req)).property,
    async act(p, { values, req, res }) {
      const input = { property_id: p.property_id, ...(values.cancel_turnovers === 'yes' ? { cancel_turnovers: true } : {}) };
      const removed = await runPropertyOp(d, d.ops.remove_property, input, req);
      return doneAt(d, res, SECTION, { text: removed.message });
    },
    page: async ({ s, values, req, problem }) => (await removeBody(d, s, req, { problem, ticked: values.cancel_turnovers === 'yes' })).body,
  });

/** The properties pages (GET) and forms (POST, behind `signed`: the session and its form token), by address; a form's address shows its page. */
export function propertyRoutes(router: Router, d: DashboardDeps, signed: RequestHandler[]): void {
  const list = listPage(d);
  const one = propertyPage(d);
  router.get(SECTION, list);
  router.post(SECTION, ...signed, postAdd(d));
  router.get(`${SECTION}/:id`, one);
  for (const part of ['sync', 'times', 'stays/:stay/accept']) router.get(`${SECTION}/:id/${part}`, one);
  router.post(`${SECTION}/:id/sync`, ...signed, postSync(d));
  router.post(`${SECTION}/:id/times`, ...signed, postTimes(d));
  router.post(`${SECTION}/:id/stays/:stay/accept`, ...signed, postAccept(d));
  router.get(`${SECTION}/:id/remove`, removePage(d));
  router.post(`${SECTION}/:id/remove`, ...signed, postRemove(d));
}
