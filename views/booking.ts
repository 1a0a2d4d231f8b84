import { startView } from './bridge';
import { showBooking, type Shown } from './book-flow';

/** The booking view (book_cleaning, booking_status): what was booked, its manage link and .ics, and cancel. */
const app = startView<Shown>('booking', (b) => showBooking(app, b));
