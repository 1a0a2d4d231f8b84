import {
  formatDay,
  formatLabel,
  formatLocalIso,
  visitPassed,
  visitPassesEarlierVisit,
  visitPassesLaterVisit,
  localDate,
  minutesOfDay,
  notPaused,
  crewToTake,
  nearestOpenTimesOfCrews,
  requireFirmQuote,
  seriesDates,
  seriesHorizonEnd,
  seriesVisitSkippedMessage,
  wallTimeToInstant,
  whyNoCrewFree,
  type CrewSchedule,
  type Job,
  type LocalDate,
  type Quote,
  type SeriesFrequency,
} from '@frontdesk/domain';
import {
  appendEvent,
  bookingById,
  insertBooking,
  jobColumns,
  liveSeries,
  loadBusy,
  lockPro,
  lockSeries,
  newId,
  scheduleRules,
  updateSeries,
  visitsAround,
  type Booking,
  type Db,
  type Pro,
} from '@frontdesk/db';

const DAY = 86_400_000;

/** A visit of a series the schedule could not hold, and why. */
export interface SkippedVisit {
  start: Date;
  label: string;
  reason: string;
  nearby: string[];
}

export interface PlannedVisits {
  quote: Quote;
  accepted: HeldSlot[];
  skipped: SkippedVisit[];
}

/** The price of every visit after the first: the recurring price, whatever the first-visit rule. */
export const laterVisitQuote = (pro: Pro, job: Job) => requireFirmQuote(jobColumns(job), { ...pro.price_list, first_visit_discounted: true });

/** A start to judge: a local date and time, how long the job there runs, and the crew it should stay with when free. */
export interface WantedStart {
  date: LocalDate;
  minutes: number;
  durationMinutes: number;
  prefer?: string;
}

/** A start that passed, with the slot it holds and the crew that takes it. */
export interface HeldSlot {
  index: number;
  start: Date;
  end: Date;
  blockedUntil: Date;
  crewId: string;
}

/**
 * Judges starts in order by the rules of a single booking against the crews' schedules, each
 * accepted one then counted as busy for its crew: for the visits of a new series and for a
 * series moving. A start goes to its preferred crew when free, else to the crew the
 * assignment rule picks. A local time that does not exist that day (clocks spring forward)
 * cannot be held either.
 */
export function judgeStarts(pro: Pro, wanted: WantedStart[], around: { crews: CrewSchedule[] }, now: Date): { accepted: HeldSlot[]; skipped: SkippedVisit[] } {
  const crews = around.crews.map((c) => ({ ...c, busy: [...c.busy] }));
  const accepted: HeldSlot[] = [];
  const skipped: SkippedVisit[] = [];
  for (const [index, w] of wanted.entries()) {
    const start = wallTimeToInstant(w.date, w.minutes, pro.timezone);
    if (!start) {
      const label = `${w.date} at ${String(Math.floor(w.minutes / 60)).padStart(2, '0')}:${String(w.minutes % 60).padStart(2, '0')}`;
      skipped.push({ start: new Date(`${w.date}T12:00:00Z`), label, reason: `${label} does not exist: clocks spring forward that day.`, nearby: [] });
      continue;
    }
    const query = { rules: scheduleRules(pro), durationMinutes: w.durationMinutes, now, crews };
    const crew = crewToTake(query, start, w.prefer);
    if (!crew) {
      const why = whyNoCrewFree(query, start)!;
      const nearby = nearestOpenTimesOfCrews(query, start).map((o) => formatLabel(o.start, pro.timezone, now));
      skipped.push({ start, label: formatLabel(start, pro.timezone, now), reason: why.message, nearby });
      continue;
    }
    const end = new Date(start.getTime() + w.durationMinutes * 60_000);
    const blockedUntil = new Date(end.getTime() + pro.travel_buffer_minutes * 60_000);
    accepted.push({ index, start, end, blockedUntil, crewId: crew.id });
    crew.busy.push({ start, blockedUntil });
  }
  return { accepted, skipped };
}

/** A start that could not be held, as a refusal lists it: why, and what is open nearby. */
export const conflictLine = (v: SkippedVisit) => `${v.reason}${v.nearby.length ? ` (open nearby: ${v.nearby.join(', ')})` : ''}`;

/** What planning a series' visits needs: the business, the job, the dates at one local time, what is already held (and by which crew), the series' crew, the clock. */
export interface VisitsToPlan {
  pro: Pro;
  job: Job;
  dates: LocalDate[];
  localMinutes: number;
  held: { start: Date; blockedUntil: Date; crewId: string }[];
  /** The crew the series stays with where it is free. */
  crewId: string;
  now: Date;
}

/**
 * Checks each date of a series at its local time against the crews' schedules, as a single
 * booking would be checked, counting the visits accepted before it (and `held`) as busy.
 * Writes nothing.
 */
export async function planVisits(trx: Db, p: VisitsToPlan): Promise<PlannedVisits> {
  const { pro, dates, now } = p;
  const quote = laterVisitQuote(pro, p.job);
  if (dates.length === 0) return { quote, accepted: [], skipped: [] };
  const from = wallTimeToInstant(dates[0]!, 0, pro.timezone) ?? new Date(now);
  const to = new Date((wallTimeToInstant(dates[dates.length - 1]!, 0, pro.timezone) ?? now).getTime() + 2 * DAY);
  const { crews } = await loadBusy(trx, pro.id, { from: new Date(from.getTime() - DAY), to });
  const withHeld = crews.map((c) => ({ ...c, busy: [...c.busy, ...p.held.filter((h) => h.crewId === c.id)] }));
  const wanted = dates.map((date) => ({ date, minutes: p.localMinutes, durationMinutes: quote.duration_minutes, prefer: p.crewId }));
  return { quote, ...judgeStarts(pro, wanted, { crews: withHeld }, now) };
}

/** What a booking and every visit of its series share: who, where, what, through which channel. */
export type VisitTemplate = Pick<
  Booking,
  | 'pro_id'
  | 'channel'
  | 'client_name'
  | 'customer_name'
  | 'customer_phone'
  | 'customer_email'
  | 'address'
  | 'zip'
  | 'notes'
  | 'access_details'
  | 'account_email'
> &
  Job;

/** One booking of a template at a held slot. */
export interface VisitToWrite {
  id?: string;
  seriesId: string | null;
  leadId: string | null;
  slot: { start: Date; end: Date; blockedUntil: Date; crewId: string };
  quote: Quote;
  feeCents: number;
  manageToken: boolean;
  now: Date;
}

/** The one insert of a booking, for a single booking and for every visit of a series. */
export function writeBooking(trx: Db, t: VisitTemplate, v: VisitToWrite) {
  return insertBooking(
    trx,
    {
      id: v.id ?? newId('bk'),
      pro_id: t.pro_id,
      crew_id: v.slot.crewId,
      series_id: v.seriesId,
      lead_id: v.leadId,
      channel: t.channel,
      client_name: t.client_name,
      starts_at: v.slot.start,
      ends_at: v.slot.end,
      blocked_until: v.slot.blockedUntil,
      customer_name: t.customer_name,
      customer_phone: t.customer_phone,
      customer_email: t.customer_email,
      address: t.address,
      zip: t.zip,
      notes: t.notes,
      access_details: t.access_details,
      account_email: t.account_email,
      ...jobColumns(t),
      price_cents: v.quote.total_cents,
      quote: v.quote,
      fee_cents: v.feeCents,
    },
    { now: v.now, manageToken: v.manageToken },
  );
}

/** Writes the accepted visits of a plan, copying the template visit's customer and job. One fee per series: it rides on the first visit. */
export async function insertVisits(trx: Db, template: Booking, s: { seriesId: string; plan: PlannedVisits }, now: Date): Promise<Booking[]> {
  const { seriesId, plan } = s;
  const visits: Booking[] = [];
  for (const v of plan.accepted) {
    const slot = { start: v.start, end: v.end, blockedUntil: v.blockedUntil, crewId: v.crewId };
    const { booking } = await writeBooking(trx, template, { seriesId, leadId: null, slot, quote: plan.quote, feeCents: 0, manageToken: false, now });
    visits.push(booking);
  }
  return visits;
}

/** The dates after the first a new series holds now: through the horizon from today. */
export function firstHorizon(pro: Pro, start: Date, frequency: SeriesFrequency, now: Date): { firstDate: LocalDate; dates: LocalDate[]; through: LocalDate } {
  const firstDate = localDate(start, pro.timezone);
  const through = seriesHorizonEnd(localDate(now, pro.timezone), frequency);
  return { firstDate, through, dates: seriesDates(firstDate, frequency, firstDate, through) };
}

export const localMinutesOf = (start: Date, zone: string) => minutesOfDay(formatLocalIso(start, zone).slice(11, 16));

/**
 * Rolls every live series' horizon forward to today's: visits that come within it are
 * booked as the first ones were (with the series' crew when free), except the dates a pause
 * skipped; one the schedule cannot hold is skipped and becomes an event for the business. Each series is extended under its pro's lock, and its
 * planned_through moves in the same transaction, so replicas running this at once book a
 * date once. Returns how many visits were booked and skipped.
 */
export async function extendSeries(db: Db, now: Date): Promise<{ booked: number; skipped: number }> {
  let booked = 0;
  let skipped = 0;
  for (const s of await liveSeries(db)) {
    if (s.planned_through >= seriesHorizonEnd(localDate(now, s.timezone), s.frequency)) continue;
    const done = await db.transaction().execute((trx) => extendOne(trx, s.pro_id, s.id, now));
    booked += done.booked;
    skipped += done.skipped;
  }
  return { booked, skipped };
}

/** One series rolled forward under its pro's lock; a series ended or extended meanwhile is left alone. */
async function extendOne(trx: Db, proId: string, seriesId: string, now: Date): Promise<{ booked: number; skipped: number }> {
  const pro = await lockPro(trx, proId);
  const current = pro && (await lockSeries(trx, seriesId));
  if (!pro || !current) return { booked: 0, skipped: 0 };
  const through = seriesHorizonEnd(localDate(now, pro.timezone), current.frequency);
  if (current.ended_at || current.planned_through >= through) return { booked: 0, skipped: 0 };
  const template = (await bookingById(trx, current.template_booking_id))!;
  const dates = notPaused(seriesDates(current.first_date, current.frequency, current.planned_through, through), current.paused_dates);
  const crewId = current.crew_id ?? template.crew_id;
  const plan = await planVisits(trx, { pro, job: template, dates, localMinutes: current.local_minutes, held: [], crewId, now });
  await insertVisits(trx, template, { seriesId: current.id, plan }, now);
  for (const v of plan.skipped) {
    await appendEvent(trx, pro.id, {
      kind: 'series.visit_skipped',
      payload: {
        series_id: current.id,
        start: v.label,
        customer_name: template.customer_name,
        reason: v.reason,
        message: seriesVisitSkippedMessage(template.customer_name, v.label, v.reason),
      },
      at: now,
    });
  }
  await updateSeries(trx, current.id, { planned_through: through });
  return { booked: plan.accepted.length, skipped: plan.skipped.length };
}

/**
 * Refuses a move that would take a visit of a series past the visit before it or, moved alone,
 * past the visit after it (the domain's visitPassed); a booking of no series moves freely.
 */
export async function keepSeriesOrder(trx: Db, m: { pro: Pro; visit: Booking; start: Date; andFollowing: boolean; now: Date }): Promise<void> {
  if (!m.visit.series_id) return;
  const { pro, start, now } = m;
  const { before, after } = await visitsAround(trx, m.visit.series_id, m.visit.starts_at);
  const day = (d: Date) => localDate(d, pro.timezone);
  const passed = visitPassed({ to: day(start), before: before && day(before.starts_at), after: after && day(after.starts_at), andFollowing: m.andFollowing });
  if (passed === 'before') throw visitPassesEarlierVisit(formatDay(day(start)), formatLabel(before!.starts_at, pro.timezone, now));
  if (passed === 'after') throw visitPassesLaterVisit(formatDay(day(start)), formatLabel(after!.starts_at, pro.timezone, now));
}

/** The visits of a job's series just before and after it, which a move of it stays between (none for a job of no series). */
export async function visitNeighbours(db: Db, job: Booking): Promise<{ before?: Booking; after?: Booking }> {
  return job.series_id ? visitsAround(db, job.series_id, job.starts_at) : {};
}
