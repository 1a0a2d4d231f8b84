import {
  checkoutPassed,
  formatLabel,
  noProperty,
  noStayToAccept,
  proposalAcceptedMessage,
  proposalAlreadyBookedMessage,
  proposalNeedsAttentionMessage,
  proposalReplannedMessage,
} from '@frontdesk/domain';
import { liveStays, lockBooking, lockPro, lockProperty, type Db, type Pro } from '@frontdesk/db';
import { placeTurnoverFee, type HostMail } from './host-mail';
import { acceptPlan, todayOf, windowOf, type Plan } from './turnover-plan';

/** What accepting a proposed turnover did, with the sentence the dashboard shows. */
export interface Accepted {
  outcome: 'booked' | 'replanned' | 'already_booked' | 'needs_attention';
  booking_id: string | null;
  message: string;
}

/**
 * Accepts a stay's proposed turnover (issue 37, `propose` mode; the dashboard's "Accept"):
 * in one transaction under the locks a sync takes (the business's row, then the property's),
 * so a sync and an accept never book one stay twice. The proposed start is booked through the
 * ordinary path as a `book`-mode clean is; a start taken meanwhile is re-planned to the earliest
 * start that fits, or the stay needs attention with the reason. A host-requested property's
 * host hears of the booking as of any the calendars make (`host`). A stay booked already (a
 * second tap, a reload, a sync that booked it) is said so and nothing changes.
 */
export async function acceptProposal(db: Db, pro: Pro, input: { property_id: string; stay_id: string }, o: { now: Date; host?: HostMail }): Promise<Accepted> {
  const { now, host } = o;
  return db.transaction().execute(async (trx) => {
    const locked = await lockPro(trx, pro.id);
    const property = locked && (await lockProperty(trx, pro.id, input.property_id));
    if (!locked || !property) throw noProperty(input.property_id);
    const plan: Plan = { pro: locked, property, now, host };
    const stays = (await liveStays(trx, property.id)).filter((s) => s.end_date >= todayOf(plan));
    const at = stays.findIndex((s) => s.id === input.stay_id);
    const stay = stays[at];
    if (!stay) throw noStayToAccept();
    const zone = locked.timezone;
    const label = (d: Date) => formatLabel(d, zone, now);
    const booking = stay.booking_id ? await lockBooking(trx, stay.booking_id, pro.id) : undefined;
    if (booking?.status === 'booked')
      return { outcome: 'already_booked', booking_id: booking.id, message: proposalAlreadyBookedMessage(property.name, label(booking.starts_at)) };
    const w = windowOf(plan, stay, stays[at + 1]);
    if (w.from.getTime() <= now.getTime()) throw checkoutPassed();
    const done = await acceptPlan(trx, plan, stay, w);
    await placeTurnoverFee(trx, property, now);
    if (done.outcome === 'needs_attention')
      return { outcome: 'needs_attention', booking_id: null, message: proposalNeedsAttentionMessage(property.name, done.reason) };
    const when = label(done.booking.starts_at);
    if (done.outcome === 'as_proposed') return { outcome: 'booked', booking_id: done.booking.id, message: proposalAcceptedMessage(property.name, when) };
    const proposed = stay.proposed_start && label(stay.proposed_start);
    return { outcome: 'replanned', booking_id: done.booking.id, message: proposalReplannedMessage(property.name, proposed, when) };
  });
}
