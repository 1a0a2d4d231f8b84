import {
  crewCannotTakeStart,
  crewToTake,
  crewsFreeAt,
  formatLabel,
  justTaken,
  nearestOpenTimesOfCrews,
  noBooking,
  noBookingWithToken,
  noSuchVisit,
  notOpen,
  whyNoCrewFree,
  type CrewSchedule,
  type EventKind,
} from '@frontdesk/domain';
import {
  appendEventLater,
  bookedSince,
  insertNotification,
  loadBusy,
  lockBooking,
  lockBookingByToken,
  lockPro,
  scheduleRules,
  type Booking,
  type Crew,
  type Db,
  type Pro,
} from '@frontdesk/db';

/**
 * What every change to a booking shares: how the booking is found and locked, how a start
 * is judged open, and how the change is told to the business.
 */

const DAY = 86_400_000;
/** A booking this recent that holds the time lost a race, rather than being there all along. */
const RACE_WINDOW_MS = 60_000;

/** A booking and its pro, both locked (the pro's row first: the lock order everywhere). */
export interface LockedBooking {
  pro: Pro;
  booking: Booking;
}

/** Who asks for a change, and which booking: the business by id, or a customer by the manage token (and a visit of its series). */
export type BookingLocator = { by: 'pro'; proId: string; bookingId: string } | { by: 'customer'; manageToken: string; visitId?: string };

/** A job on a business's own schedule, locked after its pro. */
async function lockJob(trx: Db, proId: string, bookingId: string): Promise<LockedBooking> {
  const pro = await lockPro(trx, proId);
  const booking = pro && (await lockBooking(trx, bookingId, proId));
  if (!pro || !booking) throw noBooking(bookingId);
  return { pro, booking };
}

/**
 * The booking a manage token opens, locked after its pro in one locked read, or another visit
 * of its series named by `visitId`; a visit of any other booking is not found.
 */
async function lockManaged(trx: Db, manageToken: string, visitId: string | undefined): Promise<LockedBooking> {
  const opened = await lockBookingByToken(trx, manageToken);
  if (!opened) throw noBookingWithToken();
  if (visitId === undefined || visitId === opened.booking.id) return opened;
  const visit = await lockBooking(trx, visitId, opened.pro.id);
  if (!visit || visit.series_id === null || visit.series_id !== opened.booking.series_id) throw noSuchVisit(visitId);
  return { pro: opened.pro, booking: visit };
}

/** The booking a change acts on, locked after its pro. */
export function lockBookingToChange(trx: Db, at: BookingLocator): Promise<LockedBooking> {
  return at.by === 'pro' ? lockJob(trx, at.proId, at.bookingId) : lockManaged(trx, at.manageToken, at.visitId);
}

/** What judging a start needs: the business (locked), the start, how long the job runs, the clock, and a booking moving out of its own way. */
export interface StartToJudge {
  pro: Pro;
  start: Date;
  durationMinutes: number;
  now: Date;
  moving?: Booking;
  /** Only this crew may take it (book_job's crew_id): its refusal names it. */
  crew?: Crew;
  /** This crew takes it when free (a series' crew, a moving job's own); else the assignment rule picks. */
  prefer?: string;
}

/** A start that can be held: the slot and the crew that takes it. */
export interface HeldStart {
  end: Date;
  blockedUntil: Date;
  crewId: string;
}

/**
 * The slot a job from `start` would hold and the crew that takes it, if the start is open for
 * a crew by the same rules open_times lists by (a booking being moved does not stand in its
 * own way); otherwise the refusal, naming a lost race as such, or the reason with the nearest
 * open times.
 */
export async function requireOpenStart(trx: Db, s: StartToJudge): Promise<HeldStart> {
  const { pro, start, now } = s;
  const query = await startQuery(trx, s);
  const end = new Date(start.getTime() + s.durationMinutes * 60_000);
  const blockedUntil = new Date(end.getTime() + pro.travel_buffer_minutes * 60_000);
  const chosen = crewToTake(query, start, s.prefer);
  if (chosen) return { end, blockedUntil, crewId: chosen.id };
  const why = whyNoCrewFree(query, start)!;
  const label = formatLabel(start, pro.timezone, now);
  const nearby = nearestLabels(query, s);
  if (why.reason === 'taken' && (await bookedSince(trx, pro.id, { start, end }, new Date(now.getTime() - RACE_WINDOW_MS)))) throw justTaken(label, nearby);
  if (s.crew) throw notOpen(crewCannotTakeStart(s.crew.name, why.message), nearby);
  throw notOpen(why.message, nearby);
}

/**
 * What the crews' days hold over a long span, read once and kept current by its reader: a
 * turnover sync plans a property's many cleans from it, adding each clean it books, instead of
 * reading the crews' days again for every stay. Only for new jobs (a move needs the bookings'
 * ids), and only inside the transaction that holds the business's row while it was read.
 */
export interface BusyDays {
  from: number;
  to: number;
  crews: CrewSchedule[];
}

/** The crews' days over [from, to), for a BusyDays reader. */
export async function readBusyDays(trx: Db, proId: string, from: Date, to: Date): Promise<BusyDays> {
  return { from: from.getTime(), to: to.getTime(), crews: (await loadBusy(trx, proId, { from, to })).crews };
}

/** A job just booked, added to the days it was judged on (so the next search sees it). */
export function bookedInto(days: BusyDays, slot: { start: Date; blockedUntil: Date; crewId: string }): void {
  days.crews.find((c) => c.id === slot.crewId)?.busy.push({ start: slot.start, blockedUntil: slot.blockedUntil });
}

/** The crews' days over [from, to] from what was read, each crew's blocks cut to the span (the rules sort what they get). */
function busyWithin(days: BusyDays, from: number, to: number): CrewSchedule[] {
  const within = (s: number, e: number) => s < to && e > from;
  return days.crews.map((c) => ({
    ...c,
    busy: c.busy.filter((b) => within(b.start.getTime(), b.blockedUntil.getTime())),
    timeOff: c.timeOff.filter((t) => within(t.start.getTime(), t.end.getTime())),
  }));
}

/** The crews that may take a start, each with what fills its days around it, as the availability rules judge them. */
async function startQuery(trx: Db, s: StartToJudge & { to?: Date; days?: BusyDays }) {
  const { pro, start, now, moving } = s;
  // A start in the past is refused before anything else, and its alternatives start from now.
  const around = Math.max(start.getTime(), now.getTime());
  // A window to search (a turnover's, up to the next check-in) may run past the days around the start.
  const to = Math.max(around + 3 * DAY, (s.to?.getTime() ?? 0) + DAY);
  const from = around - 2 * DAY;
  const kept = !moving && s.days && s.days.from <= from && s.days.to >= to ? s.days : undefined;
  const active = kept
    ? busyWithin(kept, from, to)
    : (await loadBusy(trx, pro.id, { from: new Date(from), to: new Date(to), bookingIds: moving !== undefined })).crews;
  const crews = (s.crew ? active.filter((c) => c.id === s.crew!.id) : active).map((c) =>
    moving ? { ...c, busy: c.busy.filter((b) => b.bookingId !== moving.id) } : c,
  );
  return { rules: scheduleRules(pro), durationMinutes: s.durationMinutes, now, crews };
}

const nearestLabels = (query: Awaited<ReturnType<typeof startQuery>>, s: StartToJudge) =>
  nearestOpenTimesOfCrews(query, s.start).map((o) => formatLabel(o.start, s.pro.timezone, s.now));

/** The open starts nearest to a start for a job (a refusal's alternatives), as labels. */
export async function nearestOpenStarts(trx: Db, s: StartToJudge): Promise<string[]> {
  return nearestLabels(await startQuery(trx, s), s);
}

/** Starts are tried on this grid inside a window; the schedule's own step refuses the ones off it. */
const WINDOW_STEP_MS = 5 * 60_000;

/**
 * The earliest start from `s.start` whose whole job ends by `to` that a crew can take, by the
 * rules open_times lists by (a booking being moved does not stand in its own way), or null.
 */
export async function earliestOpenStart(trx: Db, s: StartToJudge & { to: Date }): Promise<Date | null> {
  const query = await startQuery(trx, s);
  const last = s.to.getTime() - s.durationMinutes * 60_000;
  for (let t = Math.ceil(s.start.getTime() / WINDOW_STEP_MS) * WINDOW_STEP_MS; t <= last; t += WINDOW_STEP_MS) {
    if (crewsFreeAt(query, new Date(t)).length > 0) return new Date(t);
  }
  return null;
}

/**
 * earliestOpenStart with the slot a job from it holds and the crew that takes it (as
 * requireOpenStart would choose it), from the same one read of the crews' days: what a
 * turnover books without judging its start a second time.
 */
export async function earliestOpenSlot(trx: Db, s: StartToJudge & { to: Date; days?: BusyDays }): Promise<(HeldStart & { start: Date }) | null> {
  const query = await startQuery(trx, s);
  const last = s.to.getTime() - s.durationMinutes * 60_000;
  for (let t = Math.ceil(s.start.getTime() / WINDOW_STEP_MS) * WINDOW_STEP_MS; t <= last; t += WINDOW_STEP_MS) {
    const start = new Date(t);
    const crew = crewToTake(query, start, s.prefer);
    if (!crew) continue;
    const end = new Date(t + s.durationMinutes * 60_000);
    return { start, end, blockedUntil: new Date(end.getTime() + s.pro.travel_buffer_minutes * 60_000), crewId: crew.id };
  }
  return null;
}

/** The open starts nearest to a start for a job, as instants (for a page to offer them). */
export async function nearestOpenInstants(trx: Db, s: StartToJudge): Promise<Date[]> {
  return nearestOpenTimesOfCrews(await startQuery(trx, s), s.start).map((o) => o.start);
}

/** A change the business hears of: an event in its feed naming the job's crew, and when the customer made it, a notification too. */
export async function recordChange(
  trx: Db,
  c: {
    pro: Pro;
    booking: Booking;
    kind: EventKind;
    by: 'pro' | 'customer';
    message: string;
    payload: Record<string, unknown>;
    now: Date;
    /** False when another event of the same act carries the owner's one notification. */
    notify?: boolean;
  },
): Promise<void> {
  const { booking } = c;
  if (c.by === 'customer' && c.notify !== false)
    await insertNotification(trx, { proId: c.pro.id, bookingId: booking.id, kind: c.kind, message: c.message, now: c.now });
  const crew = { crew_id: booking.crew_id, crew_name: booking.crew_name };
  await appendEventLater(trx, c.pro.id, { kind: c.kind, payload: { ...c.payload, ...crew, message: c.message }, at: c.now });
}
