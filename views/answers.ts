import type { AnswerOf } from '../packages/http/src/operation';
import type { BookingOperationSet } from '../services/booking/src/operations';
import type { ProDeskOperationSet } from '../services/pro-desk/src/operations';

/** The tool answers the views draw, as the operations' output schemas type them (types only: nothing of the server is bundled). */
type Book = BookingOperationSet;
type Pro = ProDeskOperationSet;
export type Found = AnswerOf<Book['find_cleaners']>;
export type Times = AnswerOf<Book['available_times']>;
export type Held = AnswerOf<Book['hold_time']>;
export type Booked = AnswerOf<Book['book_cleaning']>;
export type Status = AnswerOf<Book['booking_status']>;
export type Cancelled = AnswerOf<Book['cancel_booking']>;
export type Moved = AnswerOf<Book['reschedule_booking']>;
export type Schedule = AnswerOf<Pro['schedule']>;
export type Job = Schedule['jobs'][number];
export type OnMyWay = AnswerOf<Pro['notify_on_my_way']>;
export type LoggedLead = AnswerOf<Pro['log_lead']>;
