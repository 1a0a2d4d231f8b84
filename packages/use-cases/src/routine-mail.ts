import {
  addDays,
  agendaDue,
  crewAgendaMail,
  formatLabel,
  formatTimeOfDay,
  onMyWayAddress,
  onMyWayMail,
  ownerAddress,
  ownerAgendaMail,
  wallTimeOrNextInstant,
  type AgendaJob,
} from '@frontdesk/domain';
import {
  agendaJobs,
  businessesAwaitingAgenda,
  crewsWithEmail,
  enqueueMail,
  markOnMyWaySent,
  recordAgenda,
  type Booking,
  type Db,
  type Pro,
} from '@frontdesk/db';
import { fromPlatformLead } from './booking-mail';
import { lockBookingToChange } from './booking-change';

/**
 * The routine messages: "on my way" when the owner asks, and the morning agenda when it
 * comes due. Each is queued in the outbox in the transaction that records it as sent, so it
 * leaves once, and only if that commits.
 */

/** What notify_on_my_way did: the job, whether a mail was queued by this call, and when the job's mail was queued. */
export interface OnMyWay {
  pro: Pro;
  booking: Booking;
  queued: boolean;
  sentAt: Date;
}

/**
 * Emails a job's customer that the crew is on the way, once per job: a job whose mail went
 * before answers when, and sends nothing. The job is locked, so two calls at once send one.
 */
export async function notifyOnMyWay(db: Db, proId: string, input: { booking_id: string; eta_minutes?: number }, now: Date): Promise<OnMyWay> {
  return db.transaction().execute(async (trx) => {
    const { pro, booking } = await lockBookingToChange(trx, { by: 'pro', proId, bookingId: input.booking_id });
    if (booking.on_my_way_sent_at) return { pro, booking, queued: false, sentAt: booking.on_my_way_sent_at };
    const label = formatLabel(booking.starts_at, pro.timezone, now);
    const to = onMyWayAddress(booking, { label, zone: pro.timezone, now, platformLead: await fromPlatformLead(trx, booking) });
    const sent = await markOnMyWaySent(trx, booking.id, now);
    if (!sent) return { pro, booking, queued: false, sentAt: booking.on_my_way_sent_at ?? now };
    const mail = onMyWayMail({
      proName: pro.name,
      proPhone: pro.phone,
      customerName: booking.customer_name,
      address: booking.address,
      etaMinutes: input.eta_minutes ?? null,
    });
    await enqueueMail(trx, { to, ...mail, now });
    return { pro, booking: sent, queued: true, sentAt: now };
  });
}

/** The mails of one business's agenda of `day`: the owner's (every job, per crew), and each crew's with an email (its own jobs). */
async function agendaMails(db: Db, pro: Pro, day: string) {
  const zone = pro.timezone;
  const jobs = await agendaJobs(db, pro.id, { from: wallTimeOrNextInstant(day, 0, zone), to: wallTimeOrNextInstant(addDays(day, 1), 0, zone) });
  if (jobs.length === 0) return { jobs: 0, mails: [] };
  // "Tue, Nov 24": the day's date as its noon's label says it.
  const dayLabel = formatLabel(wallTimeOrNextInstant(day, 12 * 60, zone), zone)
    .split(', ')
    .slice(0, 2)
    .join(', ');
  const listed = (j: (typeof jobs)[number]): AgendaJob & { crewId: string } => ({
    time: formatTimeOfDay(j.starts_at, zone),
    customerName: j.customer_name,
    address: j.address,
    zip: j.zip,
    accessDetails: j.access_details,
    customerPhone: j.customer_phone,
    crewName: j.crew_name,
    crewId: j.crew_id,
  });
  const all = jobs.map(listed);
  const owner = ownerAddress(pro);
  const mails = owner ? [{ to: owner, ...ownerAgendaMail({ proName: pro.name, dayLabel, jobs: all }) }] : [];
  for (const crew of await crewsWithEmail(db, pro.id)) {
    const own = all.filter((j) => j.crewId === crew.id);
    if (own.length) mails.push({ to: crew.email!, ...crewAgendaMail({ proName: pro.name, crewName: crew.name, dayLabel, jobs: own }) });
  }
  return { jobs: jobs.length, mails };
}

/**
 * Makes every morning agenda that is due: each business's once per local day, whichever
 * process gets there first (the day's row is the key; a second writer waits on it and adds
 * nothing). One that is too late for its day is recorded as skipped, with no mail. Returns
 * how many agendas were made.
 */
export async function makeDueAgendas(db: Db, now: Date): Promise<number> {
  let made = 0;
  for (const pro of await businessesAwaitingAgenda(db, now)) {
    const due = agendaDue(now, { zone: pro.timezone, at: pro.owner_agenda });
    if (!due) continue;
    const { jobs, mails } = due.late ? { jobs: 0, mails: [] } : await agendaMails(db, pro, due.day);
    const wrote = await db.transaction().execute(async (trx) => {
      if (!(await recordAgenda(trx, { proId: pro.id, day: due.day, jobs, mails: mails.length, now }))) return false;
      for (const m of mails) await enqueueMail(trx, { ...m, now });
      return true;
    });
    if (wrote && !due.late) made += 1;
  }
  return made;
}
