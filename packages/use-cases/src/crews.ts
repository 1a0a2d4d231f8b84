import {
  DAY_MS,
  MAX_CREWS,
  alreadyOnCrew,
  applyWorkingHours,
  assignClash,
  checkCrewName,
  crewInactive,
  crewHoldsJobs,
  crewNameTaken,
  formatLabel,
  formatLocalIso,
  jobAssignedMessage,
  jobNotAssignable,
  lastActiveCrew,
  noBooking,
  noBusiness,
  noCrew,
  nothingToChange,
  reassignClashes,
  reassignToItself,
  tooManyCrews,
  whyCrewCannotTake,
  type CrewSchedule,
  type Weekday,
  type WeeklyHours,
  checkCrewEmail,
} from '@frontdesk/domain';
import {
  appendEvent,
  bookedVisitsFrom,
  crewOf,
  crewsOf,
  insertCrew,
  isCrewNameTaken,
  loadBusy,
  lockBooking,
  lockPro,
  lockSeries,
  lockUpcomingJobsOfCrew,
  markCrewRemoved,
  scheduleRules,
  setBookingCrew,
  updateCrew as saveCrew,
  upcomingJobCounts,
  updateSeries,
  type Booking,
  type Crew,
  type Db,
  type Pro,
} from '@frontdesk/db';

/**
 * A business's crews: added, changed, removed, and a job moved from one to another. Every
 * change locks the business's row first (the lock order every booking write uses), so a
 * crew never changes under a booking being judged; the crew triggers then version every
 * open time cached for the business.
 */

export type HoursChange = Partial<Record<Weekday, string[]>>;

/** The crews of a business with how many upcoming jobs each holds. */
export async function listCrews(db: Db, proId: string, now: Date): Promise<{ crews: Crew[]; upcoming: Map<string, number> }> {
  const [crews, upcoming] = await Promise.all([crewsOf(db, proId), upcomingJobCounts(db, proId, now)]);
  return { crews, upcoming };
}

/** The crew a business named for a job: one of its own, active. */
export async function namedCrew(trx: Db, proId: string, crewId: string): Promise<Crew> {
  const crew = await ownCrew(trx, proId, crewId);
  if (!crew.active) throw crewInactive(crew.name);
  return crew;
}

/** The business, locked. */
async function lockBusiness(trx: Db, proId: string): Promise<Pro> {
  const pro = await lockPro(trx, proId);
  if (!pro) throw noBusiness();
  return pro;
}

/** A crew of the business, not removed. */
async function ownCrew(trx: Db, proId: string, crewId: string): Promise<Crew> {
  const crew = await crewOf(trx, proId, crewId);
  if (!crew) throw noCrew(crewId);
  return crew;
}

/** A write that may meet the one-name-per-business index, refused in words. */
async function namedUniquely<T>(name: string | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (name !== undefined && isCrewNameTaken(err)) throw crewNameTaken(name);
    throw err;
  }
}

export async function addCrew(db: Db, proId: string, input: { name: string; working_hours?: HoursChange }, now: Date) {
  const name = checkCrewName(input.name);
  return namedUniquely(name, () =>
    db.transaction().execute(async (trx) => {
      const pro = await lockBusiness(trx, proId);
      if ((await crewsOf(trx, proId)).length >= MAX_CREWS) throw tooManyCrews(MAX_CREWS);
      const weeklyHours = input.working_hours ? applyWorkingHours(pro.weekly_hours, input.working_hours) : null;
      const crew = await insertCrew(trx, { proId, name, weeklyHours, now });
      return { pro, crew };
    }),
  );
}

export interface CrewUpdate {
  name?: string;
  /** Per weekday; null goes back to the business's hours. */
  working_hours?: HoursChange | null;
  active?: boolean;
  /** Where the crew's own morning agenda goes; null: none. */
  email?: string | null;
}

export async function updateCrew(db: Db, proId: string, change: CrewUpdate & { crew_id: string }, now: Date) {
  const crewId = change.crew_id;
  if (change.name === undefined && change.working_hours === undefined && change.active === undefined && change.email === undefined) throw nothingToChange();
  const email = change.email === undefined ? undefined : checkCrewEmail(change.email);
  const name = change.name === undefined ? undefined : checkCrewName(change.name);
  return namedUniquely(name, () =>
    db.transaction().execute(async (trx) => {
      const pro = await lockBusiness(trx, proId);
      const crew = await ownCrew(trx, proId, crewId);
      if (change.active === false && crew.active) await requireAnotherActive(trx, proId, crew);
      let weeklyHours: WeeklyHours | null | undefined;
      if (change.working_hours === null) weeklyHours = null;
      else if (change.working_hours) weeklyHours = applyWorkingHours(crew.weekly_hours ?? pro.weekly_hours, change.working_hours);
      const saved = await saveCrew(trx, { proId, crewId }, { name, weeklyHours, active: change.active, email }, now);
      return { pro, crew: saved, upcoming: (await upcomingJobCounts(trx, proId, now)).get(crewId) ?? 0 };
    }),
  );
}

/** A business always keeps an active crew: someone must be able to take its jobs. */
async function requireAnotherActive(trx: Db, proId: string, crew: Crew): Promise<void> {
  const others = (await crewsOf(trx, proId)).filter((c) => c.id !== crew.id && c.active);
  if (others.length === 0) throw lastActiveCrew(crew.name);
}

/** The one crew `crewId` as availability sees it over the span of `jobs`, the jobs in `moving` not standing in its way. */
async function crewOver(trx: Db, pro: Pro, crewId: string, jobs: Booking[]): Promise<CrewSchedule> {
  const from = new Date(jobs[0]!.starts_at.getTime() - DAY_MS);
  const to = new Date(Math.max(...jobs.map((j) => j.blocked_until.getTime())) + DAY_MS);
  const { crews } = await loadBusy(trx, pro.id, { from, to, bookingIds: true });
  const crew = crews.find((c) => c.id === crewId)!;
  const moving = new Set(jobs.map((j) => j.id));
  return { ...crew, busy: crew.busy.filter((b) => !moving.has(b.bookingId!)) };
}

/** Why `crew` cannot hold each of `jobs` (each one held counting as busy for the next), in order; empty when it can hold them all. */
function clashes(pro: Pro, crew: CrewSchedule, jobs: Booking[], now: Date): string[] {
  const rules = scheduleRules(pro);
  const lines: string[] = [];
  const held = { ...crew, busy: [...crew.busy] };
  for (const j of jobs) {
    const job = { start: j.starts_at, end: j.ends_at, blockedUntil: j.blocked_until };
    const why = whyCrewCannotTake(rules, held, job, now);
    if (why) lines.push(why.charAt(0).toUpperCase() + why.slice(1));
    else held.busy.push({ start: j.starts_at, blockedUntil: j.blocked_until, bookingId: j.id });
  }
  return lines;
}

/** Moves a job to `to` and tells the feed, naming both crews. */
async function moveToCrew(trx: Db, m: { pro: Pro; job: Booking; to: Crew; now: Date }): Promise<Booking> {
  const { pro, job, to, now } = m;
  const moved = await setBookingCrew(trx, job.id, to.id, now);
  const label = formatLabel(job.starts_at, pro.timezone);
  await appendEvent(trx, pro.id, {
    kind: 'booking.assigned',
    payload: {
      booking_id: job.id,
      series_id: job.series_id,
      start: formatLocalIso(job.starts_at, pro.timezone),
      label,
      customer_name: job.customer_name,
      from_crew_id: job.crew_id,
      from_crew_name: job.crew_name,
      crew_id: moved.crew_id,
      crew_name: moved.crew_name,
      message: jobAssignedMessage(job.customer_name, label, job.crew_name, moved.crew_name),
    },
    at: now,
  });
  return moved;
}

/**
 * Removes a crew. Refused while it holds upcoming jobs, unless `reassignTo` names another
 * crew that can hold every one of them; then they all move and the crew goes in one
 * transaction, or nothing changes. A `reassignTo` given is judged as assign_job judges its
 * crew (one of the business's own, active, not the one removed) whether or not there are
 * jobs to move.
 */
export async function removeCrew(db: Db, proId: string, input: { crew_id: string; reassign_to?: string }, now: Date) {
  const { crew_id: crewId, reassign_to: reassignTo } = input;
  return db.transaction().execute(async (trx) => {
    const pro = await lockBusiness(trx, proId);
    const crew = await ownCrew(trx, proId, crewId);
    if (reassignTo === crewId) throw reassignToItself();
    const to = reassignTo === undefined ? undefined : await namedCrew(trx, proId, reassignTo);
    if (crew.active) await requireAnotherActive(trx, proId, crew);
    const jobs = await lockUpcomingJobsOfCrew(trx, crewId, now);
    let moved: Booking[] = [];
    if (jobs.length > 0) {
      if (to === undefined) throw crewHoldsJobs(crew.name, jobs.length, formatLabel(jobs[0]!.starts_at, pro.timezone, now));
      const lines = clashes(pro, await crewOver(trx, pro, to.id, jobs), jobs, now);
      if (lines.length > 0) throw reassignClashes(to.name, lines);
      moved = [];
      for (const job of jobs) moved.push(await moveToCrew(trx, { pro, job, to, now }));
    }
    await markCrewRemoved(trx, proId, crewId, now);
    return { pro, crew, moved };
  });
}

/**
 * Puts an upcoming job on another crew at the same time, or refuses naming what is in the
 * way; nothing changes on a refusal. With `andFollowing`, a visit of a series takes every
 * later booked visit with it (those already on that crew stay), and the series books its new
 * visits with that crew from then on; one visit the crew cannot hold refuses them all.
 */
export async function assignJob(db: Db, proId: string, input: { bookingId: string; crewId: string; andFollowing?: boolean }, now: Date) {
  return db.transaction().execute(async (trx) => {
    const pro = await lockBusiness(trx, proId);
    const job = await lockBooking(trx, input.bookingId, proId);
    if (!job) throw noBooking(input.bookingId);
    if (job.status !== 'booked' || job.starts_at.getTime() <= now.getTime())
      throw jobNotAssignable(job.id, job.status === 'booked' ? 'under way or done' : job.status);
    const to = await namedCrew(trx, proId, input.crewId);
    const series = input.andFollowing && job.series_id ? await lockSeries(trx, job.series_id) : undefined;
    const visits = series ? await bookedVisitsFrom(trx, series.id, job.starts_at) : [job];
    const jobs = visits.filter((v) => v.crew_id !== to.id);
    if (jobs.length === 0) throw alreadyOnCrew(to.name);
    const lines = clashes(pro, await crewOver(trx, pro, to.id, jobs), jobs, now);
    if (lines.length > 0) throw series ? reassignClashes(to.name, lines) : assignClash(to.name, lines[0]!);
    const moved: Booking[] = [];
    for (const j of jobs) moved.push(await moveToCrew(trx, { pro, job: j, to, now }));
    if (series) await updateSeries(trx, series.id, { crew_id: to.id });
    return { pro, booking: moved.find((m) => m.id === job.id) ?? job, from: job, moved: moved.length };
  });
}
