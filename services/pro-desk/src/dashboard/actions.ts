import type { RequestHandler } from 'express';
import { rotateBusinessKey, markNotificationsSeen, newCalendarAddress, businessById, type AffectedJob } from '@frontdesk/use-cases';
import { formField } from '@frontdesk/http';
import { runForm, showDashboard, type DashboardDeps } from './deps';
import { SETTINGS_FORMS } from './forms';
import { signedInPost } from './session';

/** The dashboard's forms that change the business: the operations' own, and the writes that are no operation. */

/** A settings form (hours, prices, add-ons, profile) as update_business; the page lists the booked jobs it touches. */
export function postSettings(d: DashboardDeps, part: keyof typeof SETTINGS_FORMS): RequestHandler[] {
  const settings = SETTINGS_FORMS[part]!;
  return signedInPost(d, async (req, res, s) => {
    const { affected_jobs: affected } = await runForm<{ affected_jobs: AffectedJob[] }>(
      d,
      { op: d.ops.update_business, input: settings.read(req.body) },
      req,
      s.pro,
    );
    const pro = (await businessById(d.ctx.db, s.pro.id)) ?? s.pro;
    await showDashboard(d, res, { status: 200, pro, token: s.token, notice: { ok: true, text: settings.saved, affected } });
  });
}

export const postTimeOff = (d: DashboardDeps): RequestHandler[] =>
  signedInPost(d, async (req, res, s) => {
    const note = formField(req.body, 'note').trim();
    const input = { start: formField(req.body, 'start'), end: formField(req.body, 'end'), ...(note ? { note } : {}) };
    const { affected_jobs: affected } = await runForm<{ affected_jobs: AffectedJob[] }>(d, { op: d.ops.add_time_off, input }, req, s.pro);
    await showDashboard(d, res, { status: 200, ...s, notice: { ok: true, text: 'Time off saved: no open times are offered in it.', affected } });
  });

export const postRemoveTimeOff = (d: DashboardDeps): RequestHandler[] =>
  signedInPost(d, async (req, res, s) => {
    await runForm(d, { op: d.ops.remove_time_off, input: { time_off_id: formField(req.body, 'time_off_id') } }, req, s.pro);
    await showDashboard(d, res, { status: 200, ...s, notice: { ok: true, text: 'Time off removed: those times are offered again.' } });
  });

/** At most this many notifications are dismissed by one form. */
const MAX_MARKED = 100;

export const postMarkRead = (d: DashboardDeps): RequestHandler[] =>
  signedInPost(d, async (req, res, s) => {
    const ids = ([] as unknown[]).concat((req.body as { id?: unknown }).id ?? []).filter((v): v is string => typeof v === 'string');
    await markNotificationsSeen(d.ctx.db, s.pro.id, ids.slice(0, MAX_MARKED), d.ctx.clock());
    await showDashboard(d, res, { status: 200, ...s, notice: { ok: true, text: 'Marked read.' } });
  });

export const postNewKey = (d: DashboardDeps): RequestHandler[] =>
  signedInPost(d, async (_req, res, s) => {
    const key = await rotateBusinessKey(d.ctx.db, s.pro.id, d.ctx.clock());
    // The next page of this process must not accept the old key: wait until the change feed has heard the write.
    await d.ctx.changes?.fence();
    await showDashboard(d, res, {
      status: 201,
      ...s,
      notice: {
        ok: true,
        text: 'Your old key stopped working. Give your assistant this one.',
        secret: { id: 'new-key', label: 'Your new key (copy it now; it is shown only this once):', value: key },
      },
    });
  });

export const postNewCalendar = (d: DashboardDeps): RequestHandler[] =>
  signedInPost(d, async (_req, res, s) => {
    const feed = await newCalendarAddress(d.ctx.db, s.pro.id, d.ctx.clock());
    await showDashboard(d, res, {
      status: 201,
      ...s,
      notice: {
        ok: true,
        text: 'Subscribe your calendar to this address. Any address made before it no longer works.',
        secret: {
          id: 'calendar-url',
          label: 'Your calendar address (copy it now; it is shown only this once):',
          value: `${d.ctx.config.publicUrl}/calendar/${feed}.ics`,
        },
      },
    });
  });
