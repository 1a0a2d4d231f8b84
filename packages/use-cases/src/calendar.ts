import { CLEAN_TYPE_LABELS, formatUsd, icalendar, type CalendarEvent } from '@frontdesk/domain';
import { bookingByToken, calendarBookings, crewOfCalendarFeed, crewsOf, proOfCalendarFeed, type Booking, type Db, type Pro } from '@frontdesk/db';

/** What every calendar event of a booking shares: its identity, time, place and state (a cancelled or no-show job is a later version of the booked one). */
function eventOf(b: Booking, host: string, words: { summary: string; description: string[] }): CalendarEvent {
  return {
    uid: `${b.id}@${host}`,
    start: b.starts_at,
    end: b.ends_at,
    summary: words.summary,
    location: `${b.address}, ${b.zip}`,
    description: words.description.join('\n'),
    cancelled: b.status === 'cancelled',
    // The job's revision, raised with every move, cancel or no-show in the same transaction:
    // the feed, the manage page's .ics and the mailed file agree on it.
    sequence: b.revision,
    updatedAt: b.updated_at,
  };
}

/**
 * How a job reads in the business's own calendar: who, where, what, for how much, and, when
 * the business has more than one crew, which crew does it (in the title and the notes).
 */
export function calendarEventOf(b: Booking, host: string, o: { crew?: boolean } = {}): CalendarEvent {
  const job = `${b.bedrooms} bedroom${b.bedrooms === 1 ? '' : 's'}, ${b.bathrooms} bathroom${b.bathrooms === 1 ? '' : 's'}${b.add_ons.length ? `, ${b.add_ons.join(', ')}` : ''}${b.pets ? ', pets' : ''}`;
  const lines = [
    ...(o.crew ? [`Crew: ${b.crew_name}`] : []),
    `Customer: ${b.customer_name}`,
    ...(b.customer_phone ? [`Phone: ${b.customer_phone}`] : []),
    ...(b.customer_email ? [`Email: ${b.customer_email}`] : []),
    `Job: ${CLEAN_TYPE_LABELS[b.clean_type]}, ${job}`,
    `Total: ${formatUsd(b.price_cents)}`,
    ...(b.notes ? [`Notes: ${b.notes}`] : []),
    ...(b.access_details ? [`Access: ${b.access_details}`] : []),
    `Booked ${b.channel === 'pro' ? 'by you' : 'by a customer'}${b.client_name ? ` through ${b.client_name}` : ''}.`,
  ];
  return {
    ...eventOf(b, host, {
      summary: `${b.status === 'no_show' ? 'No-show: ' : ''}${CLEAN_TYPE_LABELS[b.clean_type]} for ${b.customer_name}${o.crew ? ` (${b.crew_name})` : ''}`,
      description: lines,
    }),
    propertyId: b.property_id,
  };
}

/**
 * The iCalendar a feed token opens, read fresh on every fetch; undefined for an unknown token.
 * The business's address lists every crew's jobs, each naming its crew when there are several;
 * a crew's own address (the cleaner's phone) lists only that crew's jobs.
 */
export async function calendarFeed(db: Db, token: string, host: string, now: Date): Promise<string | undefined> {
  const pro = await proOfCalendarFeed(db, token);
  if (pro) {
    const [bookings, crews] = await Promise.all([calendarBookings(db, pro.id, now), crewsOf(db, pro.id)]);
    const crew = crews.length > 1 || bookings.some((b) => b.crew_id !== crews[0]?.id);
    return icalendar({ name: `${pro.name} jobs`, zone: pro.timezone, events: bookings.map((b) => calendarEventOf(b, host, { crew })), now });
  }
  const found = await crewOfCalendarFeed(db, token);
  if (!found) return undefined;
  const bookings = await calendarBookings(db, found.pro.id, now, { crewId: found.crew.id });
  const name = `${found.pro.name}: ${found.crew.name} jobs`;
  return icalendar({ name, zone: found.pro.timezone, events: bookings.map((b) => calendarEventOf(b, host)), now });
}

/** How a booking reads in the customer's own calendar: the cleaner, where, for how much. */
export function customerCalendarEventOf(b: Booking, pro: Pro, host: string): CalendarEvent {
  return eventOf(b, host, {
    summary: `${CLEAN_TYPE_LABELS[b.clean_type]} by ${pro.name}`,
    description: [
      `Total: ${formatUsd(b.price_cents)}`,
      pro.phone ? `Cleaner's phone: ${pro.phone}` : '',
      pro.email ? `Cleaner's email: ${pro.email}` : '',
    ].filter(Boolean),
  });
}

/** The .ics of the booking a manage token opens, read fresh; undefined for an unknown token. */
export async function bookingCalendar(db: Db, manageToken: string, host: string, now: Date): Promise<string | undefined> {
  const found = await bookingByToken(db, manageToken);
  if (!found) return undefined;
  const { booking, pro } = found;
  return icalendar({ name: `Cleaning by ${pro.name}`, zone: pro.timezone, now, events: [customerCalendarEventOf(booking, pro, host)] });
}
