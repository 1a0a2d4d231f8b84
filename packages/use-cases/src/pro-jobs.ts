import { listCrews } from './crews';
import { customerDetails, localDate, noCrew, normalizeJob, parseStart, type JobInput } from '@frontdesk/domain';
import { crewOf, takeUnreadNotifications, upcomingBookings, upcomingTimeOff, type Db, type Pro } from '@frontdesk/db';
import { createBooking, type Booked } from './book';
import type { HoldClaim } from './hold-claims';
import { pencilledIn } from './holds';
import { cancelBooking, type Cancelled } from './cancel';
import { pipelineReport } from './pipeline';
import { rescheduleBooking, type Rescheduled } from './reschedule';
import type { MailLinks } from './booking-mail';

/** A business's side of its own schedule: booking, moving and cancelling its jobs, and reading what is coming. */

export interface JobBookingInput extends JobInput {
  lead_id?: string;
  start: string;
  customer_name: string;
  customer_phone?: string;
  customer_email?: string;
  address: string;
  zip: string;
  notes?: string;
  skip_conflicts?: boolean;
  /** The crew to do it; without one, the assignment rule picks a free crew. */
  crew_id?: string;
}

/** Books a job on the business's own schedule: no fee, no manage token (the customer is not messaged). */
export async function bookJob(db: Db, pro: Pro, input: JobBookingInput, o: { clientName: string | null; hold?: HoldClaim; now: Date }): Promise<Booked> {
  const customer = customerDetails(input);
  return createBooking(db, {
    proId: pro.id,
    job: normalizeJob(input),
    start: parseStart(input.start, pro.timezone),
    customer: { name: customer.name, phone: customer.phone, email: customer.email },
    address: customer.address,
    zip: input.zip,
    notes: customer.notes,
    accessDetails: null,
    channel: 'pro',
    clientName: o.clientName,
    leadId: input.lead_id ?? null,
    feeCents: 0,
    manageToken: false,
    accountEmail: null,
    expectedTotalCents: null,
    skipConflicts: input.skip_conflicts ?? false,
    crewId: input.crew_id ?? null,
    hold: o.hold,
    now: o.now,
  });
}

export function cancelJob(db: Db, pro: Pro, input: { booking_id: string; and_following?: boolean }, now: Date): Promise<Cancelled> {
  return cancelBooking(db, { by: 'pro', proId: pro.id, bookingId: input.booking_id }, now, { andFollowing: input.and_following });
}

/** A business's move; with notify_customer, the customer is emailed the new time where the rule allows (`mail` says where the calendar file's events live). */
export function rescheduleJob(
  db: Db,
  pro: Pro,
  input: { booking_id: string; start: string; and_following?: boolean; notify_customer?: boolean },
  o: { mail?: MailLinks; now: Date },
): Promise<Rescheduled> {
  const move = { start: input.start, andFollowing: input.and_following, notifyCustomer: input.notify_customer, mail: o.mail, now: o.now };
  return rescheduleBooking(db, { by: 'pro', proId: pro.id, bookingId: input.booking_id }, move);
}

/** The upcoming jobs, the times pencilled in on this host, and the unread notifications, which this read marks read. */
export async function readSchedule(db: Db, pro: Pro, now: Date, crewId?: string) {
  if (crewId !== undefined && !(await crewOf(db, pro.id, crewId))) throw noCrew(crewId);
  const [jobs, notifications, holds] = await Promise.all([
    upcomingBookings(db, pro.id, now, { crewId }),
    takeUnreadNotifications(db, pro.id, now),
    pencilledIn(db, pro.id),
  ]);
  return { jobs, notifications, holds: crewId === undefined ? holds : holds.filter((h) => h.crew_id === crewId) };
}

/** What my_business shows besides the profile: upcoming time off, the crews and this month's pipeline. */
export async function businessOverview(db: Db, pro: Pro, now: Date) {
  const [timeOff, pipeline, { crews, upcoming }] = await Promise.all([
    upcomingTimeOff(db, pro.id, now),
    pipelineReport(db, pro, localDate(now, pro.timezone).slice(0, 7)),
    listCrews(db, pro.id, now),
  ]);
  return { timeOff, pipeline, crews, upcoming };
}
