import { CLEAN_TYPE_LABELS, type Job } from '../job';
import { formatUsd } from '../money';
import { InvalidInputError, NotFoundError } from '../errors';
import { BOOK_HOST_FEE_CENTS, FREE_CANCEL_HOURS } from '../policy';

/** Everything a pro or customer reads about booking, cancelling and no-shows. */

/** The fee a customer's booking through the book host costs the business, as sentences say it. */
export const BOOKING_FEE_TEXT = `${BOOK_HOST_FEE_CENTS / 100} USD`;

export const noCleaner = (id: string) => new NotFoundError(`No cleaner with id ${id}.`);
export const noCleanerToFind = (id: string) => new NotFoundError(`No cleaner with id ${id}; find_cleaners lists them.`);
export const noLead = (id: string) => new NotFoundError(`No lead with id ${id} on this business.`);
export const noBooking = (id: string) => new NotFoundError(`No booking with id ${id} on this schedule.`);
export const noBookingWithToken = () => new NotFoundError('No booking with that manage_token. Check that it was copied whole.');

export const priceChanged = (nowCents: number, shownCents: number) =>
  new InvalidInputError(
    `The price changed: this job is now ${formatUsd(nowCents)}, not the ${formatUsd(shownCents)} you were shown. Nothing was booked; confirm the new price with the customer first.`,
  );

/** The time was taken by a booking made in the last minute: a lost race. */
/** A start another booking took a moment ago; the nearest starts still open, where there are any. */
export const justTaken = (label: string, nearest: string[] = []) =>
  new InvalidInputError(
    `${label} was just taken by another booking. ${nearest.length ? `The nearest open times now: ${nearest.join('; ')}.` : 'Pick another time from the open times.'}`,
  );
/** Another writer (service or replica) got there between the check and the insert. */
export const justTakenByAnotherWriter = () => new InvalidInputError('That time was just taken by another booking. Pick another time from the open times.');

/** Why a start cannot be booked, with the nearest open starts to offer instead. */
export const notOpen = (why: string, nearest: string[]) =>
  new InvalidInputError(
    `${why}${nearest.length ? ` The nearest open times: ${nearest.join('; ')}.` : ' There is no open time within a day of it; ask open_times for other days.'}`,
  );

export const notServedZip = (proName: string, zip: string) =>
  new InvalidInputError(`${proName} does not serve ZIP ${zip}; find_cleaners lists the cleaners who do.`);

/** The client name a booking host's own pages book under (the customer on the business's booking page). */
export const BOOKING_PAGE_CLIENT = 'the booking page';

/** The notification and event text of a new booking. */
export function newBookingMessage(b: {
  channel: 'pro' | 'book';
  clientName: string | null;
  customerName: string;
  label: string;
  job: Pick<Job, 'clean_type' | 'bedrooms' | 'bathrooms'>;
  totalCents: number;
}): string {
  const fromPage = b.channel === 'book' && b.clientName === BOOKING_PAGE_CLIENT;
  const via = fromPage ? 'from your booking page' : b.channel === 'book' ? 'through the booking service' : 'on your schedule';
  const by = b.clientName && !fromPage ? ` by ${b.clientName}` : '';
  return `New booking${by} ${via}: ${b.customerName}, ${b.label}, ${CLEAN_TYPE_LABELS[b.job.clean_type].toLowerCase()} (${b.job.bedrooms} bd / ${b.job.bathrooms} ba), ${formatUsd(b.totalCents)}.`;
}

export const alreadyCancelled = (id: string, label: string) => new InvalidInputError(`Booking ${id} (${label}) is already cancelled; nothing changed.`);
export const noShowCannotCancel = (id: string, label: string) =>
  new InvalidInputError(`Booking ${id} (${label}) was reported as a no-show; it cannot be cancelled.`);
export const startedCannotCancel = (id: string, label: string) =>
  new InvalidInputError(`Booking ${id} started at ${label}; a job that has started cannot be cancelled. If the customer did not show up, report a no-show.`);

/** The notification and event text of a cancellation. */
export const cancellationMessage = (by: 'pro' | 'customer', customerName: string, label: string) =>
  `Booking cancelled by the ${by === 'pro' ? 'business' : 'customer'}: ${customerName}, ${label}. The time is open again.`;

export const cancelledNoNoShow = (id: string, label: string) => new InvalidInputError(`Booking ${id} (${label}) was cancelled; there is no no-show to report.`);
export const noShowAlreadyReported = (id: string, label: string) =>
  new InvalidInputError(`A no-show was already reported for booking ${id} (${label}); nothing changed.`);
export const noShowBeforeStart = (id: string, label: string) =>
  new InvalidInputError(`Booking ${id} starts ${label}; a no-show can be reported only after the start.`);

/** What the pro's assistant is told after book_job. */
export const bookedByProMessage = (customerName: string, label: string, totalCents: number) =>
  `Booked ${customerName} for ${label}, ${(totalCents / 100).toFixed(2)} USD. No fee: bookings the business makes are free. The customer has not been messaged; confirm with them directly.`;

/** What the pro's assistant is told after cancel_job; `reach` is how to contact the customer. */
export const cancelledByProMessage = (customerName: string, label: string, reach: string) =>
  `Cancelled ${customerName}'s job on ${label}. No fee. The customer has NOT been told: let them know (${reach}).`;

export const noShowRecordedMessage = (customerName: string, label: string, feeWaived: boolean) =>
  feeWaived
    ? `No-show recorded for ${customerName} on ${label}; the ${BOOKING_FEE_TEXT} booking fee is waived.`
    : `No-show recorded for ${customerName} on ${label}. This booking was made by the business, so there was no fee to waive.`;

/** What the customer's assistant is told after book_cleaning. */
export const bookedByCustomerMessage = (b: { proName: string; label: string; address: string; totalCents: number; customerName: string; shared: string[] }) =>
  `Booked ${b.proName} for ${b.label} at ${b.address}, ${formatUsd(b.totalCents)} in total, no added fees. ${b.proName} will contact ${b.customerName} about access and payment. Shared with the cleaner: ${b.shared.join(', ')}. Keep the manage_token: it is the only way to check or cancel this booking.`;

/** What the customer's assistant is told after cancel_booking; `late` is inside the free-cancel window. */
export const cancelledByCustomerMessage = (proName: string, label: string, late: boolean) =>
  late
    ? `Cancelled ${proName} on ${label}. The start was less than ${FREE_CANCEL_HOURS} hours away, so ${proName} may charge under their own cancellation policy; tell the user.`
    : `Cancelled ${proName} on ${label}, free of charge. ${proName} has been told.`;

export const sharedKeyListsNoBookings =
  "The shared public key cannot list anyone's bookings. Use booking_status with the manage_token from each booking, or connect the user's own account.";

export const startedCannotMove = (id: string, label: string) =>
  new InvalidInputError(`Booking ${id} started at ${label}; a job that has started cannot be moved.`);
export const notLiveCannotMove = (id: string, label: string, status: string) =>
  new InvalidInputError(`Booking ${id} (${label}) is ${status === 'no_show' ? 'a reported no-show' : status}; only a booked job can be moved.`);
export const sameStart = (label: string) => new InvalidInputError(`The booking already starts at ${label}; nothing changed.`);

/** The notification and event text of a move. */
export const rescheduleMessage = (by: 'pro' | 'customer', customerName: string, from: string, to: string) =>
  `Booking moved by the ${by === 'pro' ? 'business' : 'customer'}: ${customerName}, from ${from} to ${to}. The old time is open again.`;

/** What the pro's assistant is told after reschedule_job. */
export const rescheduledByProMessage = (customerName: string, from: string, to: string, reach: string) =>
  `Moved ${customerName}'s job from ${from} to ${to}; the price stays as booked. The customer has NOT been told: let them know (${reach}).`;

/** What the customer's assistant is told after reschedule_booking; `late` is inside the free-cancel window of the old start. */
export const rescheduledByCustomerMessage = (proName: string, from: string, to: string, late: boolean) =>
  late
    ? `Moved ${proName} from ${from} to ${to}. The old start was less than ${FREE_CANCEL_HOURS} hours away, so ${proName} may charge under their own cancellation policy; tell the user. ${proName} has been told.`
    : `Moved ${proName} from ${from} to ${to}, at the same price. ${proName} has been told.`;

/** A series some of whose visits cannot be booked: nothing was booked. */
export const seriesConflicts = (lines: string[]) =>
  new InvalidInputError(
    `These visits of the series cannot be booked, so nothing was booked: ${lines.join('; ')}. Pick another start or time, or send skip_conflicts: true to book the other visits.`,
  );
export const seriesCreatedMessage = (s: { customerName: string; frequency: string; visits: number; first: string; skipped: number }) =>
  `New ${s.frequency} series for ${s.customerName}: ${s.visits} visits booked from ${s.first}${s.skipped ? `, ${s.skipped} skipped (the time was not open)` : ''}.`;
export const seriesVisitSkippedMessage = (customerName: string, label: string, why: string) =>
  `A visit of ${customerName}'s series could not be booked for ${label}: ${why} Move or book it by hand if the customer wants it.`;
export const seriesCancelledMessage = (by: 'pro' | 'customer', customerName: string, from: string, count: number) =>
  `Series ended by the ${by === 'pro' ? 'business' : 'customer'}: ${customerName}'s ${count === 1 ? 'visit' : `${count} visits`} from ${from} onward ${count === 1 ? 'is' : 'are'} cancelled.`;

/** What a booking answer adds when it started a series. */
export const seriesSummary = (visits: number, skipped: number) =>
  `This books a series of ${visits} visits at the same local time (see series.visits)${skipped ? `; ${skipped} could not be booked (see series.skipped)` : ''}. More are added as time passes.`;

/** A move of a series' visits some of which cannot land: nothing moved. */
export const seriesMoveConflicts = (lines: string[]) =>
  new InvalidInputError(
    `These visits of the series cannot move there, so nothing moved: ${lines.join('; ')}. Pick another time, or move this visit alone (without and_following).`,
  );

export const noSuchVisit = (id: string) =>
  new NotFoundError(`No visit ${id} in the series this manage_token opens; booking_status lists its visits (series_visits).`);

const laterVisits = (n: number) => `The ${n} later visit${n === 1 ? '' : 's'}`;
/** What a cancel with and_following adds: the later visits went too (nothing when there were none). */
export const laterVisitsCancelled = (n: number) => (n ? ` ${laterVisits(n)} ${n === 1 ? 'is' : 'are'} cancelled too; the series has ended.` : '');
/** What a move with and_following adds: the later visits kept the series' rhythm (nothing when there were none). */
export const laterVisitsMoved = (n: number) => (n ? ` ${laterVisits(n)} of the series moved with it, keeping its rhythm.` : '');

/** What find_cleaners says when it lists nobody: no cleaner serves the ZIP, or none offers this job. */
export const noCleanersMessage = (zip: string, serving: number, notOffering: number) =>
  serving === 0
    ? `No cleaner on this service serves ZIP ${zip} yet.`
    : `${serving} cleaner${serving === 1 ? ' serves' : 's serve'} ZIP ${zip}, but none offers this job (${notOffering} do not offer the clean type or an add-on).`;
