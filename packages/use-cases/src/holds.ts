import {
  HOLD_MINUTES,
  holdGoneWhy,
  justTakenByAnotherWriter,
  noCleaner,
  noCleanerToFind,
  noHold,
  normalizeJob,
  parseStart,
  requireServedZip,
  type HoldGone,
  type HoldOwner,
  type Job,
  type JobInput,
} from '@frontdesk/domain';
import {
  findHold,
  getPro,
  insertHold,
  isOverlapViolation,
  liveHolds,
  liveHoldsOwnedBy,
  holdsTakenBy,
  lockPro,
  markHoldReleased,
  newId,
  type Db,
  type Hold,
  type HoldHost,
  type Pro,
} from '@frontdesk/db';
import { priceUnderLock } from './book';
import { nearestOpenInstants, requireOpenStart } from './booking-change';
import { claimedBy, lockHeld, type HoldClaim } from './hold-claims';
import { namedCrew } from './crews';

/**
 * Holds: a crew's time kept for a caller while its user confirms. Taking one is judged like a
 * booking of the same job (the pro's row locked, the start open for a crew), and PostgreSQL
 * has the last word (the triggers of migration 20261126T120000-holds). Taking or releasing a
 * hold writes no event, mail or webhook: only the booking made from it does.
 */

/** What a hold keeps, asked for. */
export interface HoldRequest {
  proId: string;
  job: Job;
  start: Date;
  minutes: number;
  host: HoldHost;
  owner: HoldOwner;
  leadId: string | null;
  crewId?: string | null;
  now: Date;
}

/** A hold taken, with its pro and the crew's name. */
export interface Held {
  hold: Hold;
  pro: Pro;
  crewName: string;
}

/**
 * Takes a hold on a start open now for a crew (the named one, or the one the assignment rule
 * picks). The request is made once the pro's row is locked, from the row itself (its zone
 * reads the start), so no read of the pro goes before the transaction; `missing` is the
 * refusal when there is no such pro.
 */
export async function takeHold(db: Db, proId: string, ask: (pro: Pro) => HoldRequest, missing: () => Error): Promise<Held> {
  try {
    return await db.transaction().execute(async (trx) => {
      const locked = await lockPro(trx, proId);
      if (!locked) throw missing();
      const req = ask(locked);
      const { pro, quote } = await priceUnderLock(trx, { ...req, expectedTotalCents: null }, locked);
      const named = req.crewId ? await namedCrew(trx, pro.id, req.crewId) : undefined;
      const slot = await requireOpenStart(trx, { pro, start: req.start, durationMinutes: quote.duration_minutes, now: req.now, crew: named });
      const hold = await insertHold(
        trx,
        {
          id: newId('hold'),
          pro_id: pro.id,
          crew_id: slot.crewId,
          host: req.host,
          starts_at: req.start,
          ends_at: slot.end,
          blocked_until: slot.blockedUntil,
          job: JSON.stringify(req.job),
          quote: JSON.stringify(quote),
          price_cents: quote.total_cents,
          owner_credential: req.owner.credential,
          owner_email: req.owner.email,
          owner_phone: req.owner.phone,
          lead_id: req.leadId,
        },
        req.minutes,
      );
      const { crew_name: crewName, ...taken } = hold;
      return { hold: taken, pro, crewName };
    });
  } catch (err) {
    // Another writer took the crew's time between our check and the insert.
    if (isOverlapViolation(err)) throw justTakenByAnotherWriter();
    throw err;
  }
}

/**
 * A hold as its owner's page shows it: the hold and its pro, why it can no longer be booked
 * with (null while it lives) and then the nearest open starts for its job; undefined when it
 * is not the claimant's.
 */
export async function heldFor(db: Db, claim: HoldClaim, now: Date) {
  const held = await findHold(db, claim.id);
  const pro = held && claimedBy(held, claim) ? await getPro(db, held.pro_id) : undefined;
  if (!held || !pro) return undefined;
  const gone = holdGoneWhy(held, now);
  const nearest = gone ? await nearestOpenInstants(db, { pro, start: held.starts_at, durationMinutes: held.quote.duration_minutes, now }) : [];
  return { hold: held, pro, gone, nearest };
}

/** The live holds one owner credential has on a pro (the booking page keeps one per visitor). */
export const liveHoldsOf = (db: Db, proId: string, credential: string) => liveHoldsOwnedBy(db, proId, credential);

/** How many holds one owner credential has taken on a pro, whatever became of them. */
export const holdsTakenOf = (db: Db, proId: string, credential: string) => holdsTakenBy(db, proId, credential);

/** Releases a hold its owner no longer needs: at once, and again without harm. */
export async function releaseHold(db: Db, claim: HoldClaim): Promise<{ hold: Hold; pro: Pro; state: 'released' | HoldGone }> {
  const found = await findHold(db, claim.id);
  if (!found) throw noHold(claim.id);
  return db.transaction().execute(async (trx) => {
    const pro = await lockPro(trx, found.pro_id);
    const held = pro && (await lockHeld(trx, pro, claim));
    if (!pro || !held) throw noHold(claim.id);
    if (held.used_at) return { hold: held, pro, state: 'used' as const };
    await markHoldReleased(trx, held.id);
    return { hold: held, pro, state: 'released' as const };
  });
}

/** A customer's hold on the book host: the cleaner found, the ZIP served, minutes within the book host's bounds. */
export async function holdForCustomer(
  db: Db,
  owner: HoldOwner,
  input: JobInput & { cleaner_id: string; start: string; zip?: string; minutes?: number },
  now: Date,
): Promise<Held> {
  const ask = (pro: Pro): HoldRequest => {
    if (input.zip !== undefined) requireServedZip(pro, input.zip);
    return {
      proId: pro.id,
      job: normalizeJob(input),
      start: parseStart(input.start, pro.timezone),
      minutes: input.minutes ?? HOLD_MINUTES.book.default,
      host: 'book',
      owner,
      leadId: null,
      now,
    };
  };
  return takeHold(db, input.cleaner_id, ask, () => noCleanerToFind(input.cleaner_id));
}

/** A business pencilling in a time on its own schedule (for a lead, on a crew, when named). */
export function holdForBusiness(
  db: Db,
  pro: Pro,
  input: JobInput & { start: string; minutes?: number; lead_id?: string; crew_id?: string },
  now: Date,
): Promise<Held> {
  const req: HoldRequest = {
    proId: pro.id,
    job: normalizeJob(input),
    start: parseStart(input.start, pro.timezone),
    minutes: input.minutes ?? HOLD_MINUTES.pro.default,
    host: 'pro',
    owner: { credential: `pro:${pro.id}`, email: null, phone: null },
    leadId: input.lead_id ?? null,
    crewId: input.crew_id ?? null,
    now,
  };
  return takeHold(
    db,
    pro.id,
    () => req,
    () => noCleaner(pro.id),
  );
}

/** A business's live holds taken on its own host (what schedule lists), soonest first. */
export function pencilledIn(db: Db, proId: string) {
  return liveHolds(db, proId, 'pro');
}
