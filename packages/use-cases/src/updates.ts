import {
  CHECK_IN_MINUTES,
  JOBS_TODAY_AT,
  RECENT_WINDOW_DAYS,
  UPDATES_PAGE_SIZE,
  addDays,
  cursorResetMessage,
  followUpDueMessage,
  formatLabel,
  formatLocalIso,
  isWorkingTime,
  jobsTodayMessage,
  localDate,
  minutesOfDay,
  nextFollowUpDue,
  wallTimeOrNextInstant,
} from '@frontdesk/domain';
import {
  appendEvent,
  bookingsStartingBetween,
  eventHead,
  quotedLeadsAwaitingReply,
  readEvents,
  scheduleRules,
  writtenDedupeKeys,
  type Db,
  type Pro,
} from '@frontdesk/db';

interface DueEvent {
  kind: string;
  key: string;
  payload: Record<string, unknown>;
}

async function dueFollowUps(db: Db, pro: Pro, now: Date): Promise<DueEvent[]> {
  const due: DueEvent[] = [];
  for (const lead of await quotedLeadsAwaitingReply(db, pro.id)) {
    const next = nextFollowUpDue(lead);
    if (!next || next.dueAt.getTime() > now.getTime()) continue;
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
  return due;
}

async function dueJobsToday(db: Db, pro: Pro, now: Date): Promise<DueEvent[]> {
  const day = localDate(now, pro.timezone);
  const jobs = await bookingsStartingBetween(db, pro.id, wallTimeOrNextInstant(day, 0, pro.timezone), wallTimeOrNextInstant(addDays(day, 1), 0, pro.timezone));
  if (jobs.length === 0) return [];
  const dueAt = Math.min(wallTimeOrNextInstant(day, minutesOfDay(JOBS_TODAY_AT), pro.timezone).getTime(), jobs[0]!.starts_at.getTime());
  if (now.getTime() < dueAt) return [];
  return [
    {
      kind: 'jobs.today',
      key: `jobs.today:${day}`,
      payload: {
        date: day,
        count: jobs.length,
        jobs: jobs.map((j) => ({ booking_id: j.id, start: formatLocalIso(j.starts_at, pro.timezone), customer_name: j.customer_name, address: j.address })),
        message: jobsTodayMessage(
          jobs.map((j) => ({ time: formatLabel(j.starts_at, pro.timezone).split(', ').at(-1)!, customerName: j.customer_name, address: j.address })),
        ),
      },
    },
  ];
}

/**
 * Writes the time-based events that have come due (follow-ups, today's jobs), each once
 * per pro whichever poll or replica notices first: the dedupe key is checked and the
 * event written under the pro's row lock. Keys already written are skipped without a lock.
 */
export async function materializeDueEvents(db: Db, pro: Pro, now: Date): Promise<void> {
  const due = [...(await dueFollowUps(db, pro, now)), ...(await dueJobsToday(db, pro, now))];
  if (due.length === 0) return;
  const written = await writtenDedupeKeys(
    db,
    pro.id,
    due.map((d) => d.key),
  );
  for (const event of due.filter((d) => !written.has(d.key))) {
    await db.transaction().execute((trx) => appendEvent(trx, pro.id, event.kind, event.payload, now, event.key));
  }
}

/**
 * The updates feed: due events written first, then at most one page after the cursor (or
 * the recent window without one). A cursor ahead of the feed (a restored database) is
 * reset to the head, and the answer says so.
 */
export async function readUpdates(db: Db, pro: Pro, since: number | undefined, now: Date) {
  await materializeDueEvents(db, pro, now);
  const head = await eventHead(db, pro.id);
  const reset = since !== undefined && since > head;
  const rows = reset
    ? []
    : await readEvents(
        db,
        pro.id,
        since === undefined ? { since: new Date(now.getTime() - RECENT_WINDOW_DAYS * 24 * 60 * 60 * 1000) } : { seq: since },
        UPDATES_PAGE_SIZE + 1,
      );
  const more = rows.length > UPDATES_PAGE_SIZE;
  const events = rows.slice(0, UPDATES_PAGE_SIZE);
  const cursor = reset ? head : (events.at(-1)?.seq ?? since ?? head);
  return {
    events: events.map((e) => ({ seq: e.seq, kind: e.kind, at: formatLocalIso(e.created_at, pro.timezone), ...e.payload })),
    cursor,
    next_check_in_minutes: more ? CHECK_IN_MINUTES.more : isWorkingTime(scheduleRules(pro), now) ? CHECK_IN_MINUTES.working : CHECK_IN_MINUTES.offHours,
    more,
    ...(reset ? { reset: true, message: cursorResetMessage(since, head) } : {}),
  };
}
