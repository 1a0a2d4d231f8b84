import { InvalidInputError, NotFoundError } from '../errors';
import { BOOKING_FEE_TEXT } from './bookings';
import { MAX_UPCOMING_TIME_OFF } from '../time-off';

/** Everything a business reads about its own settings and account. */

export const noBusiness = () => new NotFoundError('This business no longer exists.');
export const noTimeOff = (id: string) => new NotFoundError(`No time off ${id} for this business (my_business lists its time off).`);
export const tooMuchTimeOff = () => new InvalidInputError(`This business already has ${MAX_UPCOMING_TIME_OFF} upcoming time off entries; remove some first.`);

/** The calendar feed's answer to an address that is not (or no longer) a business's calendar. */
export const NO_CALENDAR_AT_ADDRESS = 'No calendar at this address: it may have been replaced by a newer one on the dashboard.';

/** What signing up costs, said on the sign-up page before the business is made and again once it is. */
export const SIGN_UP_FEE_TEXT = `Front Desk is free to set up. Your business pays a booking fee of ${BOOKING_FEE_TEXT} for each booking a customer makes through Front Desk (your booking page or a customer's assistant); a cancelled booking, a customer who did not show up, and jobs you or your assistant book yourselves cost nothing.`;
