import {
  MAX_UPCOMING_TIME_OFF,
  applySettings,
  messageSettingsStamps,
  formatLabel,
  formatLocalIso,
  parseTimeOff,
  noBusiness,
  noCrew,
  noTimeOff,
  timeOffLabel,
  tooMuchTimeOff,
  withinWorkingHours,
  type SettingsChange,
} from '@frontdesk/domain';
import {
  bookedBetween,
  crewOf,
  deleteTimeOff,
  insertTimeOff,
  lockPro,
  saveSettings,
  upcomingBookings,
  upcomingTimeOff,
  type Booking,
  type Db,
  type Pro,
  type TimeOffRow,
} from '@frontdesk/db';
import { listCrews } from './crews';

/**
 * A business changing its own settings. Each change locks the pro's row, as a booking
 * does, so a booking and a change of hours or time off never pass each other unseen; the
 * triggers on pros and time_off then version every answer derived from them. Nothing
 * booked is cancelled or repriced: the answer lists the jobs the change touches and the
 * business decides.
 */

/** A booked job a change touches, with what is now wrong with it. */
export function presentAffectedJob(b: Booking, timezone: string, problem: string) {
  return {
    booking_id: b.id,
    start: formatLocalIso(b.starts_at, timezone),
    end: formatLocalIso(b.ends_at, timezone),
    label: formatLabel(b.starts_at, timezone),
    customer_name: b.customer_name,
    address: b.address,
    zip: b.zip,
    problem,
  };
}
export type AffectedJob = ReturnType<typeof presentAffectedJob>;

/** Time off as my_business lists it: one crew's names the crew; the whole business's names none. */
export function presentTimeOff(t: TimeOffRow & { crew_name?: string | null }, timezone: string) {
  return {
    time_off_id: t.id,
    start: formatLocalIso(t.starts_at, timezone),
    end: formatLocalIso(t.ends_at, timezone),
    label: timeOffLabel(t.starts_at, t.ends_at, timezone),
    note: t.note,
    ...(t.crew_id === null ? {} : { crew_id: t.crew_id, crew_name: t.crew_name ?? '' }),
  };
}

/** Upcoming jobs the business's hours or ZIPs no longer cover. */
function jobsOutside(pro: Pro, jobs: Booking[]): AffectedJob[] {
  const affected: AffectedJob[] = [];
  for (const b of jobs) {
    const problems: string[] = [];
    if (!pro.service_zips.includes(b.zip)) problems.push(`ZIP ${b.zip} is no longer a service ZIP`);
    if (!withinWorkingHours(pro, b.starts_at, b.ends_at)) problems.push('it is outside the working hours now');
    if (problems.length) affected.push(presentAffectedJob(b, pro.timezone, `${problems.join('; ')}: move or cancel it, or keep it as it is.`));
  }
  return affected;
}

export async function updateBusinessSettings(db: Db, proId: string, change: SettingsChange, now: Date) {
  return db.transaction().execute(async (trx) => {
    const current = await lockPro(trx, proId);
    if (!current) throw noBusiness();
    const next = applySettings(current, change);
    const pro = await saveSettings(trx, proId, { ...next, ...messageSettingsStamps(current, next, now) });
    const [jobs, timeOff, crews] = await Promise.all([
      upcomingBookings(trx, proId, now, { limit: 500 }),
      upcomingTimeOff(trx, proId, now),
      listCrews(trx, proId, now),
    ]);
    return { pro, affected: jobsOutside(pro, jobs), timeOff, crews };
  });
}

export async function addTimeOff(db: Db, proId: string, input: { start: string; end: string; note?: string; crew_id?: string }, now: Date) {
  return db.transaction().execute(async (trx) => {
    const pro = await lockPro(trx, proId);
    if (!pro) throw noBusiness();
    const crew = input.crew_id === undefined ? null : await crewOf(trx, proId, input.crew_id);
    if (crew === undefined) throw noCrew(input.crew_id!);
    const { start, end } = parseTimeOff(input, pro.timezone, now);
    const upcoming = await upcomingTimeOff(trx, proId, now, MAX_UPCOMING_TIME_OFF);
    // The same days off for the same crew (a form sent again, a retry without a key) are the
    // time off already there, not a second copy of it.
    const same = upcoming.find((t) => t.crew_id === (crew?.id ?? null) && t.starts_at.getTime() === start.getTime() && t.ends_at.getTime() === end.getTime());
    if (!same && upcoming.length >= MAX_UPCOMING_TIME_OFF) throw tooMuchTimeOff();
    const row = same ?? (await insertTimeOff(trx, { proId, crewId: crew?.id ?? null, start, end, note: input.note?.trim() || null, now }));
    const inside = (await bookedBetween(trx, proId, { from: start, to: end, limit: 500 })).filter((b) => crew === null || b.crew_id === crew.id);
    return {
      pro,
      timeOff: { ...row, crew_name: crew?.name ?? null },
      affected: inside.map((b) => presentAffectedJob(b, pro.timezone, 'It falls in this time off: move or cancel it, or keep it as it is.')),
    };
  });
}

export async function removeTimeOff(db: Db, proId: string, timeOffId: string) {
  return db.transaction().execute(async (trx) => {
    const pro = await lockPro(trx, proId);
    if (!pro) throw noBusiness();
    const row = await deleteTimeOff(trx, proId, timeOffId);
    if (!row) throw noTimeOff(timeOffId);
    const crew = row.crew_id === null ? undefined : await crewOf(trx, proId, row.crew_id);
    return { pro, timeOff: { ...row, crew_name: crew?.name ?? null } };
  });
}
