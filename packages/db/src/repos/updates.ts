import {
  formatLabel,
  formatLocalIso,
  localDate,
  minutesOfDay,
  nextFollowUpDue,
  wallTimeOrNextInstant,
  addDays,
} from '@frontdesk/domain';
import type { Db } from '../connect';
import type { EventRow } from '../tables/events';
import type { Pro } from '../tables/pros';
import { appendEvent } from './events';
import { quotedLeadsAwaitingReply } from './leads';

export const UPDATES_PAGE_SIZE = 50;
export const RECENT_WINDOW_DAYS = 7;
/** Local time at which the day's job list comes due (earlier if a job starts earlier). */
export const JOBS_TODAY_AT = '06:00';

interface DueEvent {
  kind: string;
  key: string;
  payload: Record<string, unknown>;
}

async function dueFollowUps(db: Db, pro: Pro, now: Date): Promise<DueEvent[]> {
  const leads = await quotedLeadsAwaitingReply(db, pro.id);
  const due: DueEvent[] = [];
  for (const lead of leads) {
    const next = nextFollowUpDue(lead);
    if (!next || next.dueAt.getTime() > now.getTime()) continue;
    const what = lead.bedrooms !== null && lead.bathrooms !== null ? `${lead.bedrooms} bd / ${lead.bathrooms} ba` : 'size not given yet';
    due.push({
      kind: 'follow_up.due',
      key: `follow_up.due:${lead.id}:${next.number}`,
      payload: {
        lead_id: lead.id,
        source: lead.source,
        lead_ref: lead.lead_ref,
        follow_up_number: next.number,
        due_at: formatLocalIso(next.dueAt, pro.timezone),
        message: `Follow-up ${next.number} of 2 is due for the ${lead.source} lead${lead.lead_ref ? ` ${lead.lead_ref}` : ''} (${what}, logged ${formatLabel(lead.quoted_at, pro.timezone)}). follow_ups_due has the draft.`,
      },
    });
  }
  return due;
}

async function dueJobsToday(db: Db, pro: Pro, now: Date): Promise<DueEvent[]> {
  const day = localDate(now, pro.timezone);
  const dayStart = wallTimeOrNextInstant(day, 0, pro.timezone);
  const dayEnd = wallTimeOrNextInstant(addDays(day, 1), 0, pro.timezone);
  const jobs = await db
    .selectFrom('bookings')
    .select(['id', 'starts_at', 'customer_name', 'address'])
    .where('pro_id', '=', pro.id)
    .where('status', '=', 'booked')
    .where('starts_at', '>=', dayStart)
    .where('starts_at', '<', dayEnd)
    .orderBy('starts_at')
    .execute();
  if (jobs.length === 0) return [];
  const dueAt = Math.min(wallTimeOrNextInstant(day, minutesOfDay(JOBS_TODAY_AT), pro.timezone).getTime(), jobs[0]!.starts_at.getTime());
  if (now.getTime() < dueAt) return [];
  const list = jobs.map((j) => `${formatLabel(j.starts_at, pro.timezone).split(', ').at(-1)} ${j.customer_name} (${j.address})`);
  return [
    {
      kind: 'jobs.today',
      key: `jobs.today:${day}`,
      payload: {
        date: day,
        count: jobs.length,
        jobs: jobs.map((j) => ({ booking_id: j.id, start: formatLocalIso(j.starts_at, pro.timezone), customer_name: j.customer_name, address: j.address })),
        message: `${jobs.length} job${jobs.length === 1 ? '' : 's'} today: ${list.join('; ')}.`,
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
  const existing = new Set(
    (
      await db
        .selectFrom('events')
        .select('dedupe_key')
        .where('pro_id', '=', pro.id)
        .where('dedupe_key', 'in', due.map((d) => d.key))
        .execute()
    ).map((r) => r.dedupe_key),
  );
  for (const event of due.filter((d) => !existing.has(d.key))) {
    await db.transaction().execute((trx) => appendEvent(trx, pro.id, event.kind, event.payload, now, event.key));
  }
}

export interface UpdatesPage {
  events: EventRow[];
  cursor: number;
  more: boolean;
  /** The cursor was ahead of the feed (a restored database): it now points at the head. */
  reset: boolean;
}

/** Events after the cursor (or in the recent window without one), at most one page, in order. */
export async function readUpdates(db: Db, proId: string, since: number | undefined, now: Date): Promise<UpdatesPage> {
  const { event_seq: head } = await db.selectFrom('pros').select('event_seq').where('id', '=', proId).executeTakeFirstOrThrow();
  if (since !== undefined && since > head) return { events: [], cursor: head, more: false, reset: true };
  let q = db.selectFrom('events').selectAll().where('pro_id', '=', proId);
  q =
    since === undefined
      ? q.where('created_at', '>=', new Date(now.getTime() - RECENT_WINDOW_DAYS * 24 * 60 * 60 * 1000))
      : q.where('seq', '>', since);
  const rows = await q.orderBy('seq').limit(UPDATES_PAGE_SIZE + 1).execute();
  const more = rows.length > UPDATES_PAGE_SIZE;
  const events = rows.slice(0, UPDATES_PAGE_SIZE);
  return { events, cursor: events.at(-1)?.seq ?? since ?? head, more, reset: false };
}
