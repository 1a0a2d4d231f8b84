import {
  CHECK_IN_MINUTES,
  FOLLOW_UP_DELAYS_DAYS,
  JOBS_TODAY_AT,
  RECENT_WINDOW_DAYS,
  UPDATES_PAGE_SIZE,
  addDays,
  cursorResetMessage,
  eventAsShown,
  followUpDueMessage,
  formatLabel,
  formatLocalIso,
  jobsTodayMessage,
  localDate,
  minutesOfDay,
  nextFollowUpDue,
  wallTimeOrNextInstant,
  workingTimeSpan,
  type EventKind,
} from '@frontdesk/domain';
import {
  ProMemo,
  appendEvent,
  bookingsStartingBetween,
  perOwner,
  quotedLeadsAwaitingReply,
  readFeed,
  scheduleRules,
  writtenDedupeKeys,
  type ChangeFeed,
  type Db,
  type FeedPage,
  type Pro,
} from '@frontdesk/db';

interface DueEvent {
  kind: EventKind;
  key: string;
  payload: Record<string, unknown>;
}

/** The events due now, and the next instant at which another one can come due. */
interface Due {
  events: DueEvent[];
  nextAt: number;
}

async function dueFollowUps(db: Db, pro: Pro, now: Date): Promise<Due> {
  const due: DueEvent[] = [];
  let nextAt = Number.POSITIVE_INFINITY;
  for (const lead of await quotedLeadsAwaitingReply(db, pro.id, FOLLOW_UP_DELAYS_DAYS.length)) {
    const next = nextFollowUpDue(lead);
    if (!next) continue;
    if (next.dueAt.getTime() > now.getTime()) {
      nextAt = Math.min(nextAt, next.dueAt.getTime());
      continue;
    }
    due.push({
      kind: 'follow_up.due',
      key: `follow_up.due:${lead.id}:${next.number}`,
      payload: {
        lead_id: lead.id,
        source: lead.source,
        lead_ref: lead.lead_ref,
        follow_up_number: next.number,
        due_at: formatLocalIso(next.dueAt, pro.timezone),
        message: followUpDueMessage({
          number: next.number,
          source: lead.source,
          leadRef: lead.lead_ref,
          bedrooms: lead.bedrooms,
          bathrooms: lead.bathrooms,
          loggedLabel: formatLabel(lead.quoted_at, pro.timezone),
        }),
      },
    });
  }
  return { events: due, nextAt };
}

async function dueJobsToday(db: Db, pro: Pro, now: Date): Promise<Due> {
  const day = localDate(now, pro.timezone);
  const tomorrow = wallTimeOrNextInstant(addDays(day, 1), 0, pro.timezone);
  const jobs = await bookingsStartingBetween(db, pro.id, wallTimeOrNextInstant(day, 0, pro.timezone), tomorrow);
  if (jobs.length === 0) return { events: [], nextAt: tomorrow.getTime() };
  const dueAt = Math.min(wallTimeOrNextInstant(day, minutesOfDay(JOBS_TODAY_AT), pro.timezone).getTime(), jobs[0]!.starts_at.getTime());
  if (now.getTime() < dueAt) return { events: [], nextAt: dueAt };
  const events: DueEvent[] = [
    {
      kind: 'jobs.today',
      key: `jobs.today:${day}`,
      payload: {
        date: day,
        count: jobs.length,
        jobs: jobs.map((j) => ({
          booking_id: j.id,
          start: formatLocalIso(j.starts_at, pro.timezone),
          customer_name: j.customer_name,
          address: j.address,
          crew_id: j.crew_id,
          crew_name: j.crew_name,
        })),
        message: jobsTodayMessage(
          jobs.map((j) => ({ time: formatLabel(j.starts_at, pro.timezone).split(', ').at(-1)!, customerName: j.customer_name, address: j.address })),
        ),
      },
    },
  ];
  return { events, nextAt: tomorrow.getTime() };
}

/**
 * Writes the time-based events that have come due (follow-ups, today's jobs), each once
 * per pro whichever poll or replica notices first: the dedupe key is checked and the
 * event written under the pro's row lock. Keys already written are skipped without a lock.
 * Returns the next instant at which another event can come due, as long as nothing about
 * the pro changes.
 */
export async function materializeDueEvents(db: Db, pro: Pro, now: Date): Promise<{ nextAt: number }> {
  const [followUps, jobs] = [await dueFollowUps(db, pro, now), await dueJobsToday(db, pro, now)];
  const due = [...followUps.events, ...jobs.events];
  const nextAt = Math.min(followUps.nextAt, jobs.nextAt);
  if (due.length === 0) return { nextAt };
  const written = await writtenDedupeKeys(
    db,
    pro.id,
    due.map((d) => d.key),
  );
  for (const event of due.filter((d) => !written.has(d.key))) {
    await db.transaction().execute((trx) => appendEvent(trx, pro.id, { kind: event.kind, payload: event.payload, at: now, dedupeKey: event.key }));
  }
  return { nextAt };
}

// Per change feed (per process): when each pro's next time-based event can come due.
const nextDue = perOwner((changes: ChangeFeed) => new ProMemo<number>(changes));

/**
 * Due events are looked for only when one can be due: after the instant the last look
 * returned, or once anything about the pro changed (a lead quoted, a job booked).
 */
async function materializeWhenDue(db: Db, pro: Pro, now: Date, changes: ChangeFeed | undefined): Promise<{ looked: boolean }> {
  if (!changes?.live) {
    await materializeDueEvents(db, pro, now);
    return { looked: true };
  }
  let looked = false;
  await nextDue(changes).get(
    pro.id,
    async () => {
      looked = true;
      return { proId: pro.id, value: (await materializeDueEvents(db, pro, now)).nextAt };
    },
    (at) => now.getTime() < at,
  );
  return { looked };
}

/** An event as `updates` shows it (and a webhook sends it): its place, kind and time, then what it says. */
export function presentFeedEvent(e: FeedPage['events'][number], timezone: string) {
  return { seq: e.seq, kind: e.kind, at: formatLocalIso(e.created_at, timezone), ...eventAsShown(e.kind, e.payload) };
}

/**
 * Whether `now` is the business's working time, and until when that answer holds, per row of
 * the business as read (its hours are in it; a row read again after a change is a new object).
 */
const workingSpans = new WeakMap<Pro, ReturnType<typeof workingTimeSpan>>();
function workingNow(pro: Pro, now: Date): boolean {
  const t = now.getTime();
  let span = workingSpans.get(pro);
  if (!span || t < span.from || t >= span.until) workingSpans.set(pro, (span = workingTimeSpan(scheduleRules(pro), now)));
  return span.working;
}

/** Each page holds up to UPDATES_PAGE_SIZE + 1 events: fewer are kept than of the smaller answers other caches keep. */
const MAX_KEPT_PAGES = 1_000;
/** Per change feed (per process): pages of a business's feed by cursor, kept while nothing about the business changed. */
const pagesAfter = perOwner((changes: ChangeFeed) => new ProMemo<FeedPage>(changes, MAX_KEPT_PAGES));

/**
 * The updates feed: due events written first, then at most one page after the cursor (or
 * the recent window without one), read in one statement. A poll already at the head of a
 * pro this process knows to be unchanged, with nothing due, is answered without a round
 * trip. A cursor ahead of the feed (a restored database) is reset to the head, and the
 * answer says so.
 */
export async function readUpdates(db: Db, pro: Pro, input: { since?: number }, o: { now: Date; changes?: ChangeFeed }) {
  const { since } = input;
  const { now, changes } = o;
  const { looked } = await materializeWhenDue(db, pro, now, changes);
  const checkIn = (more: boolean) => (more ? CHECK_IN_MINUTES.more : workingNow(pro, now) ? CHECK_IN_MINUTES.working : CHECK_IN_MINUTES.offHours);
  // Nothing could be due and the caller's `pro` is kept current by the change feed: a poll
  // at its head has nothing to read. (A poll that looked for due events may have written one.)
  if (since !== undefined && since === pro.event_seq && !looked) {
    return { events: [], cursor: since, next_check_in_minutes: checkIn(false), more: false };
  }
  const read = () =>
    readFeed(
      db,
      pro.id,
      since === undefined ? { since: new Date(now.getTime() - RECENT_WINDOW_DAYS * 24 * 60 * 60 * 1000) } : { seq: since },
      UPDATES_PAGE_SIZE + 1,
    );
  // A page after a cursor changes only with the business's feed, and every new event is a change
  // heard: the pollers a booking leaves behind, all at the same cursor, share one read of it.
  // (Not after looking for due events: one may have been written, and not heard yet.)
  const page =
    since !== undefined && changes?.live && !looked
      ? (await pagesAfter(changes).get(`${pro.id}:${since}`, async () => ({ proId: pro.id, value: await read() })))!
      : await read();
  const reset = since !== undefined && since > page.head;
  const rows = reset ? [] : page.events;
  const more = rows.length > UPDATES_PAGE_SIZE;
  const events = rows.slice(0, UPDATES_PAGE_SIZE);
  const cursor = reset ? page.head : (events.at(-1)?.seq ?? since ?? page.head);
  return {
    events: events.map((e) => presentFeedEvent(e, pro.timezone)),
    cursor,
    next_check_in_minutes: checkIn(more),
    more,
    ...(reset ? { reset: true, message: cursorResetMessage(since, page.head) } : {}),
  };
}
