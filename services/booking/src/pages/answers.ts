import type { customerBookingSchema, Static } from '@frontdesk/domain';
import type { AnswerOf } from '@frontdesk/http';
import type { presentHold } from '@frontdesk/use-cases';
import type { BookingOperationSet } from '../operations';

/** The operations' answers the pages show, as the operations' output schemas type them. */
type Ops = BookingOperationSet;
export type Found = AnswerOf<Ops['find_cleaners']>;
export type Times = AnswerOf<Ops['available_times']>;
/** booking_status: the booking the link opens and, for a series, its visits from now on. */
export type Status = AnswerOf<Ops['booking_status']>;
export type Booked = AnswerOf<Ops['book_cleaning']>;
/** A time held for the page's visitor, as both hosts show a hold. */
export type HeldTime = ReturnType<typeof presentHold>;
/** A booking as every customer answer shows it. */
export type CustomerBooking = Static<typeof customerBookingSchema>;
export type Visit = Status['series_visits'][number];
export type Price = Times['price'];
export type Line = Price['line_items'][number];
/** An open start as a page offers it. */
export type Shown = Pick<Found['cleaners'][number]['next_open_times'][number], 'start' | 'label'>;
