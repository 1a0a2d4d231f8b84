import {
  customerContact,
  formatLabel,
  noCleanerToFind,
  noRentalWithToken,
  RELINK_MAIL_MINUTES,
  rentalAlreadyAsked,
  rentalLinkAgainMail,
  requireServedZip,
  turnoversRequestedMail,
  turnoversStoppedMail,
  type KnownUser,
  type PropertyInput,
} from '@frontdesk/domain';
import {
  deletePropertyRow,
  enqueueMail,
  getPro,
  insertStoppedRental,
  lockPro,
  mailedSince,
  propertiesOf,
  propertyReading,
  propertyByToken,
  setPropertyManageToken,
  stoppedRentalByToken,
  upcomingTurnovers,
  type Db,
  type Pro,
  type Property,
} from '@frontdesk/db';
import { addPropertyAnd, listProperties, type ShownProperty } from './properties';
import { cancelTurnover } from './turnover-plan';
import { mailCancelled, type MailLinks } from './booking-mail';
import { rentalLink, rentalUrl, type HostMail } from './host-mail';

/**
 * A host asking a business for turnover cleans from the book host (request_turnovers): the
 * business's property is made by add_property's own path, proposing each clean unless the
 * business books hosts' cleans at once (its host_turnovers setting), with a manage link (its
 * hash stored) to the host's rental page, where they see the stays and cleans and can stop.
 */

export type TurnoverRequest = Omit<PropertyInput, 'host_name' | 'host_phone' | 'host_email' | 'crew_id' | 'mode'> & {
  cleaner_id: string;
  customer_name?: string;
  customer_phone?: string;
  customer_email?: string;
};

export interface RequestedTurnovers {
  pro: Pro;
  property: ShownProperty;
  manageUrl: string;
}

/** Makes the property at the business, its manage link, and the host's confirmation mail, in one transaction. */
export async function requestTurnovers(
  db: Db,
  caller: { user: KnownUser; accountEmail: string | null; host: HostMail },
  input: TurnoverRequest,
  now: Date,
): Promise<RequestedTurnovers> {
  const { cleaner_id: cleanerId, customer_name, customer_phone, customer_email, ...rental } = input;
  const pro = await getPro(db, cleanerId);
  if (!pro) throw noCleanerToFind(cleanerId);
  requireServedZip(pro, input.zip);
  const contact = customerContact({ customer_name, customer_phone, customer_email, address: input.address }, caller.user, caller.accountEmail);
  let manageUrl = '';
  let existing: Property | undefined;
  const input$ = { ...rental, address: contact.address, host_name: contact.name, host_phone: contact.phone ?? '', host_email: contact.email ?? '' };
  const property = await addPropertyAnd(db, {
    pro,
    input: { ...input$, mode: pro.host_turnovers },
    now,
    // Under the business's row, so two requests for one calendar never both make a rental.
    async first(trx) {
      await lockPro(trx, pro.id);
      existing = await propertyReading(trx, pro.id, input.calendar_urls);
      if (existing) throw rentalAlreadyAsked(pro.name);
    },
    async alsoWithin(trx, added) {
      manageUrl = rentalUrl(caller.host.links, await setPropertyManageToken(trx, added.id, caller.host.keys));
      if (!contact.email) return;
      const book = pro.host_turnovers === 'book';
      const mail = turnoversRequestedMail({ hostName: contact.name, proName: pro.name, property: added.name, book, manageUrl });
      await enqueueMail(trx, { to: contact.email, ...mail, secret: true, now });
    },
  }).catch(async (err: unknown) => {
    if (existing) await linkToHostOnFile(db, { pro, property: existing, host: caller.host, now });
    throw err;
  });
  return { pro, property, manageUrl };
}

/**
 * A second request for calendars the business already reads makes nothing (a second rental
 * would mean a second fee and every clean twice). The caller may not be that rental's host, so
 * the answer never carries its link: the link goes again to the host's address on file, at
 * most once an hour (a repeated request is no way to flood a host's mailbox). The business's
 * own property has no link: nothing is mailed.
 */
async function linkToHostOnFile(db: Db, o: { pro: Pro; property: Property; host: HostMail; now: Date }): Promise<void> {
  const { property, now } = o;
  const url = rentalLink(o.host, property);
  if (!url || !property.host_email) return;
  if (await mailedSince(db, property.host_email, new Date(now.getTime() - RELINK_MAIL_MINUTES * 60_000))) return;
  const mail = rentalLinkAgainMail({ hostName: property.host_name, proName: o.pro.name, property: property.name, manageUrl: url });
  await enqueueMail(db, { to: property.host_email, ...mail, secret: true, now });
}

/** A requested property's page link again (an idempotent retry's answer): the same link, made under the server key. */
export async function rentalLinkAgain(db: Db, host: HostMail, o: { cleanerId: string; propertyId: string }): Promise<string | null> {
  const [property] = await propertiesOf(db, o.cleanerId, o.propertyId);
  return property ? rentalLink(host, property) : null;
}

/** What a host's link opens: the rental while it runs, or, once its host stopped it, when and how many upcoming cleans that cancelled. */
export type RentalByLink = { pro: Pro; property: ShownProperty; stopped: null } | { pro: Pro; property: null; stopped: { at: Date; cancelled: number } };

/**
 * What a host's rental page shows: the business, and the property with its upcoming stays and
 * their cleans; or that the host stopped it. A link that opens neither is refused.
 */
export async function rentalByLink(db: Db, token: string, now: Date): Promise<RentalByLink> {
  const found = await propertyByToken(db, token);
  const running = found && (await getPro(db, found.pro_id));
  if (found && running) return { pro: running, property: (await listProperties(db, running, now, found.id))[0]!, stopped: null };
  const stopped = await stoppedRentalByToken(db, token);
  const pro = stopped && (await getPro(db, stopped.pro_id));
  if (!stopped || !pro) throw noRentalWithToken();
  return { pro, property: null, stopped: { at: stopped.stopped_at, cancelled: stopped.cancelled } };
}

/**
 * The host stops the arrangement: each upcoming clean cancelled as a customer's cancel (the
 * owner's notice, as for any customer's), the property removed (its link kept only to say it was
 * stopped), and one mail to the host listing what was cancelled, in one transaction under the
 * business's row.
 */
export async function stopTurnovers(db: Db, o: { token: string; links: MailLinks; now: Date }): Promise<{ pro: Pro; name: string; cancelled: number }> {
  return db.transaction().execute(async (trx) => {
    const seen = await propertyByToken(trx, o.token);
    const pro = seen && (await lockPro(trx, seen.pro_id));
    const property = pro && (await propertyByToken(trx, o.token, { lock: true }));
    if (!pro || !property) throw noRentalWithToken();
    const cancelled: string[] = [];
    for (const u of await upcomingTurnovers(trx, property.id, o.now)) {
      const booking = u.booking_id && (await cancelTurnover(trx, { pro, property, now: o.now, stayId: u.stay_id, bookingId: u.booking_id, by: 'customer' }));
      if (!booking) continue;
      cancelled.push(formatLabel(booking.starts_at, pro.timezone));
      await mailCancelled(trx, { by: 'customer', pro, booking, laterCancelled: 0 }, o.links, o.now); // the owner's notice
    }
    await deletePropertyRow(trx, property.id);
    await insertStoppedRental(trx, { token: o.token, proId: pro.id, cancelled: cancelled.length, now: o.now });
    if (property.host_email) {
      const mail = turnoversStoppedMail({ hostName: property.host_name, proName: pro.name, property: property.name, cancelled });
      await enqueueMail(trx, { to: property.host_email, ...mail, now: o.now });
    }
    return { pro, name: property.name, cancelled: cancelled.length };
  });
}
