import { FREE_CANCEL_HOURS } from './policy';

/** The last instant a customer may cancel or move a booking starting at `start` free of charge. */
export const freeCancelUntil = (start: Date) => new Date(start.getTime() - FREE_CANCEL_HOURS * 3_600_000);

/** Whether a cancel or move now is still free: after that, the cleaner may charge under their own policy. */
export const withinFreeCancel = (start: Date, now: Date) => now.getTime() <= freeCancelUntil(start).getTime();
