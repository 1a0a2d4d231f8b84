import { BOARD_MAX_JOBS, boardWeek, localDate, type BoardWeek } from '@frontdesk/domain';
import { bookedStartingBetween, crewsOf, timeOffBetween, type BoardJob, type Crew, type Db, type Pro, type TimeOffRow } from '@frontdesk/db';

/** What the dispatch board draws for one week: the week, the crews, their booked jobs, and the time off that touches it. */
export interface BoardData {
  week: BoardWeek;
  crews: Crew[];
  jobs: BoardJob[];
  timeOff: TimeOffRow[];
  /** Whether the week has more jobs than the board draws. */
  more: boolean;
}

/**
 * The dispatch board's week (the one holding `date`, or this week): three reads side by side,
 * each on its index, so a business of 10 crews and 300 jobs a week costs the same three queries
 * as one of a single crew. A `date` that is no day is refused in words before anything is read.
 */
export async function dashboardBoard(db: Db, pro: Pro, o: { date?: string; now: Date }): Promise<BoardData> {
  const week = boardWeek(o.date, localDate(o.now, pro.timezone), pro.timezone);
  const [crews, jobs, timeOff] = await Promise.all([
    crewsOf(db, pro.id),
    bookedStartingBetween(db, pro.id, { from: week.from, to: week.to, limit: BOARD_MAX_JOBS + 1 }),
    timeOffBetween(db, pro.id, { from: week.from, to: week.to }),
  ]);
  return { week, crews, jobs: jobs.slice(0, BOARD_MAX_JOBS), timeOff, more: jobs.length > BOARD_MAX_JOBS };
}
