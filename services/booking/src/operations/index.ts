import { byName } from '@frontdesk/http';
import type { AppContext } from '../context';
import { bookCleaning, bookingStatus, cancelBookingOperation, myBookings, rescheduleBookingOperation } from './bookings';
import { availableTimes, findCleanersOperation } from './cleaners';
import { holdTime, releaseHoldOperation } from './holds';
import { requestTurnoversOperation } from './rentals';

/** The book host's operations by name (each named once, on its definition), for the pages that run them as an assistant would. */
export function bookingOperationSet(ctx: AppContext) {
  return byName([
    findCleanersOperation(ctx),
    availableTimes(ctx),
    bookCleaning(ctx),
    myBookings(ctx),
    cancelBookingOperation(ctx),
    rescheduleBookingOperation(ctx),
    bookingStatus(ctx),
    holdTime(ctx),
    releaseHoldOperation(ctx),
    requestTurnoversOperation(ctx),
  ]);
}
export type BookingOperationSet = ReturnType<typeof bookingOperationSet>;
