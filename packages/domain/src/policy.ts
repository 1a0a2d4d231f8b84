/**
 * The business constants of the service, in one place: what a booking costs the pro, when
 * cancelling stops being free, when the day's job list comes due, how the feed pages, how
 * long a sign-in code lives. Changing one changes the service's promise: the docs say them too.
 */

/** What a customer's booking through the book host costs the business (waived for a no-show). */
export const BOOK_HOST_FEE_CENTS = 500;

/** A customer cancels free of charge until this many hours before the start. */
export const FREE_CANCEL_HOURS = 24;

/** Local time at which the day's job list comes due (earlier if a job starts earlier). */
export const JOBS_TODAY_AT = '06:00';

/** Events per page of the updates feed. */
export const UPDATES_PAGE_SIZE = 50;
/** Without a cursor, the updates feed shows this many past days. */
export const RECENT_WINDOW_DAYS = 7;

/** When a watcher should poll again: at once while more is waiting, often in working hours, rarely outside them. */
export const CHECK_IN_MINUTES = { more: 0, working: 15, offHours: 60 } as const;

/** A sign-in code: six digits, valid this long, this many wrong tries, this many sent per hour. */
export const SIGN_IN_CODE_MINUTES = 10;
export const SIGN_IN_MAX_ATTEMPTS = 5;
export const SIGN_IN_MAX_CODES_PER_HOUR = 5;
/** How long the /key page stays signed in. */
export const KEY_SESSION_MINUTES = 30;
/** A business's dashboard session: a working day. */
export const DASHBOARD_SESSION_HOURS = 12;
/** How long a page keeps showing what a form made (a new key, a calendar address, a secret) to whoever made it, unless said otherwise. */
export const SHOWN_ONCE_MINUTES = 15;
/** How long the booking page's confirmation (with its manage link) stays shown in the browser that booked, while it stays open. */
export const CONFIRMATION_SHOWN_MINUTES = 30;

/** How many open times each cleaner in find_cleaners shows, and how many log_lead lists. */
export const CLEANER_OPEN_TIMES_SHOWN = 5;
export const LEAD_OPEN_TIMES_SHOWN = 10;

/** How long an idempotency key keeps its first answer for a retry. */
export const IDEMPOTENCY_KEEP_HOURS = 24;

/** How many visits of a new series its confirmation mail lists. */
export const MAILED_SERIES_VISITS = 4;

/** A move page first offers the days this far before and after the job's own date (never before today), then a week at a time. */
export const MOVE_DAYS_AROUND = 7;

/** The most jobs the dispatch board draws for one week (a business of 50 crews at six jobs a day fits). */
export const BOARD_MAX_JOBS = 2000;

/** A move page lists this many open times nearest to the job's own start first, before the rest by day. */
export const NEAREST_MOVE_TIMES = 6;

/** "On my way": how far ahead an arrival may be announced, in minutes. */
export const ON_MY_WAY_ETA_MINUTES = { min: 1, max: 240 } as const;
/** The owner's morning agenda: its local time when the business has not chosen one. */
export const DEFAULT_OWNER_AGENDA = '07:00';
/** An agenda not made within this many hours of its time (the service was down, or it was turned on later in the day) is skipped for that day. */
export const OWNER_AGENDA_LATE_HOURS = 4;
/** Turnovers (issue 37): a property's calendar addresses, how often each is read, and the limits of one read. */
export const PROPERTY_MAX_FEEDS = 5;
export const FEED_READ_MINUTES = 15;
export const FEED_TIMEOUT_SECONDS = 15;
export const FEED_MAX_BYTES = 2 * 1024 * 1024;
export const FEED_MAX_REDIRECTS = 3;
/** Successful reads in a row that list no stay before the stays they used to list count as gone. */
export const EMPTY_READS_TO_TRUST = 2;
/** How far ahead stays get cleans planned. */
export const TURNOVER_HORIZON_DAYS = 180;
/** A rental asked for again: its link is mailed again to its host at most once in this many minutes. */
export const RELINK_MAIL_MINUTES = 60;
