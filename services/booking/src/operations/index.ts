import type { Operation } from '@frontdesk/http';
import type { Customer } from '../auth';
import type { AppContext } from '../context';
import { bookCleaning, bookingStatus, cancelBookingOperation, myBookings, rescheduleBookingOperation } from './bookings';
import { availableTimes, findCleanersOperation } from './cleaners';

/** The book host's operation registry: REST routes, /openapi.json and MCP tools come from it. */
export function bookingOperations(ctx: AppContext): Operation<Customer>[] {
  return [
    findCleanersOperation(ctx),
    availableTimes(ctx),
    bookCleaning(ctx),
    myBookings(ctx),
    cancelBookingOperation(ctx),
    rescheduleBookingOperation(ctx),
    bookingStatus(ctx),
  ];
}
