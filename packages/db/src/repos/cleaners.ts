import { dayRange, openTimes, priceJob, type Job, type OpenTime, type Quote } from '@frontdesk/domain';
import { sql } from 'kysely';
import type { Db } from '../connect';
import type { Pro } from '../tables/pros';
import type { ProCheck } from '../tables/pro-checks';
import { checkOpenTimesOptions, type OpenTimesOptions } from './availability';
import { loadBusyMany } from './bookings';
import { latestChecks } from './checks';
import { scheduleRules } from './pros';

export interface CleanerOffer {
  pro: Pro;
  quote: Quote;
  times: OpenTime[];
  checks: ProCheck[];
}

/**
 * Cleaners who serve a ZIP and can price the job firmly, each with its own total and open
 * times, earliest first, then cheapest. One query per table, never one per pro: pros by
 * ZIP (GIN index), all their busy times at once, then the checks of those shown.
 */
export async function findCleaners(
  db: Db,
  zip: string,
  job: Job,
  o: OpenTimesOptions & { limit: number },
): Promise<{ offers: CleanerOffer[]; serving: number; notOffering: number }> {
  checkOpenTimesOptions(o);
  const pros = await db.selectFrom('pros').selectAll().where(sql<boolean>`service_zips @> ARRAY[${zip}]::text[]`).execute();
  const priced = pros.map((pro) => ({ pro, quote: priceJob(job, pro.price_list) })).filter((p) => p.quote.unpriced.length === 0);
  if (priced.length === 0) return { offers: [], serving: pros.length, notOffering: pros.length };

  const ranges = priced.map(({ pro }) => dayRange({ rules: scheduleRules(pro), now: o.now, from: o.date, days: o.days }));
  const from = new Date(Math.min(...ranges.map((r) => r.firstInstant.getTime())));
  const to = new Date(Math.max(...ranges.map((r) => r.endInstant.getTime())));
  const busyByPro = await loadBusyMany(db, priced.map((p) => p.pro.id), from, to);

  const offers = priced.map(({ pro, quote }, i) => {
    const { busy, timeOff } = busyByPro.get(pro.id)!;
    const times = openTimes({
      rules: scheduleRules(pro),
      durationMinutes: quote.duration_minutes,
      now: o.now,
      from: ranges[i]!.from,
      days: o.days,
      startAfter: o.startAfter,
      finishBy: o.finishBy,
      busy,
      timeOff,
    });
    return { pro, quote, times, checks: [] as ProCheck[] };
  });
  const earliest = (x: CleanerOffer) => x.times[0]?.start.getTime() ?? Number.POSITIVE_INFINITY;
  offers.sort((a, b) => earliest(a) - earliest(b) || a.quote.total_cents - b.quote.total_cents || a.pro.id.localeCompare(b.pro.id));
  const shown = offers.slice(0, o.limit);
  const checks = await latestChecks(db, shown.map((s) => s.pro.id));
  for (const s of shown) s.checks = checks.get(s.pro.id) ?? [];
  return { offers: shown, serving: pros.length, notOffering: pros.length - priced.length };
}
