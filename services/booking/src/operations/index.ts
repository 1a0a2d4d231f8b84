import type { Operation } from '@frontdesk/http';
import type { Customer } from '../auth';
import type { AppContext } from '../context';
import { bookCleaning, bookingStatus, cancelBookingOperation, myBookings, rescheduleBookingOperation } from './bookings';
import { availableTimes, findCleanersOperation } from './cleaners';

/** The book host's operations by name, for the pages that run them as an assistant would. */
export function bookingOperationSet(ctx: AppContext) {
  return {
    find_cleaners: findCleanersOperation(ctx),
    available_times: availableTimes(ctx),
    book_cleaning: bookCleaning(ctx),
    my_bookings: myBookings(ctx),
    cancel_booking: cancelBookingOperation(ctx),
    reschedule_booking: rescheduleBookingOperation(ctx),
    booking_status: bookingStatus(ctx),
  };
}
export type BookingOperationSet = ReturnType<typeof bookingOperationSet>;

/** The book host's operation registry: REST routes, /openapi.json and MCP tools come from it. */
export function bookingOperations(ctx: AppContext, set = bookingOperationSet(ctx)): Operation<Customer>[] {
  return Object.values(set);
}
