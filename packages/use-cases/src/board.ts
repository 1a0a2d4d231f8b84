import { BOARD_MAX_JOBS, boardWeek, localDate, type BoardWeek, type LocalDate } from '@frontdesk/domain';
import {
  ProMemo,
  bookedStartingBetween,
  crewsOf,
  getPro,
  timeOffBetween,
  type BoardJob,
  type ChangeFeed,
  type Crew,
  type Db,
  type Pro,
  type TimeOffRow,
} from '@frontdesk/db';

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

/** What a board is shown from besides its week: the business as read with it, and the day that is today there. */
export interface BoardShownFor {
  pro: Pro;
  today: LocalDate;
}

// A board of 10 crews and 300 jobs renders to about 100 KB: a few hundred weeks kept is a few tens of MB.
const MAX_KEPT_BOARDS = 300;

/**
 * The board as a page shows it (`show` turns a week's data into what is sent), kept in memory
 * per business and asked date while the change feed announces no change to the business: every
 * row the board is made from (bookings, crews, time off, the business's hours and zone) notifies
 * its pro when written, whichever process writes it, so a kept board is void as soon as a
 * booking, move, cancel, crew or hours change is heard. A kept board also holds only for the
 * day it was made on (it marks today). The business is read again with the week, after the
 * feed's stamp, so nothing read before the stamp goes into what is kept. Without a feed every
 * call reads. A date that is no day is refused before anything is kept.
 */
export function boardReader<T>(db: Db, changes: ChangeFeed | undefined, show: (data: BoardData, o: BoardShownFor) => T) {
  const kept = new ProMemo<{ zone: string; today: LocalDate; shown: T }>(changes, MAX_KEPT_BOARDS);
  return async (pro: Pro, o: { date?: string; now: Date }): Promise<T> => {
    const key = `${pro.id} ${o.date ?? ''}`;
    const found = await kept.get(
      key,
      async () => {
        const current = (await getPro(db, pro.id)) ?? pro;
        const today = localDate(o.now, current.timezone);
        const data = await dashboardBoard(db, current, o);
        return { proId: pro.id, value: { zone: current.timezone, today, shown: show(data, { pro: current, today }) } };
      },
      (k) => localDate(o.now, k.zone) === k.today,
    );
    return found!.shown;
  };
}
