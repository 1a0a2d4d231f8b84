import { hash } from 'node:crypto';
import type { BusinessSettings, NewBusiness, ScheduleRules } from '@frontdesk/domain';
import { sql, type SelectQueryBuilder } from 'kysely';
import { ProMemo, type ChangeFeed } from '../changes';
import { KeptValues, perOwner } from '../cache';
import type { Db } from '../connect';
import type { Database } from '../database';
import { newId } from '../ids';
import { hashSecret, issueSecret, newKey } from '../secrets';
import type { Pro, ProProfile } from '../tables/pros';

/** Writes a new business exactly as the domain made it (checked, with its defaults). */
export async function insertPro(trx: Db, b: NewBusiness): Promise<Pro> {
  return trx
    .insertInto('pros')
    .values({ ...b, id: newId('pro'), price_list: JSON.stringify(b.price_list), weekly_hours: JSON.stringify(b.weekly_hours) })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Issues a pro key; returns it, once (only its hash is kept). */
export async function issueProKey(trx: Db, proId: string): Promise<string> {
  return issueSecret(newKey('fdk'), (key_hash, key_hint) =>
    trx
      .insertInto('pro_api_keys')
      .values({ id: newId('key'), pro_id: proId, key_hash, key_hint, revoked_at: null })
      .execute(),
  );
}

/** Revokes every live key of a pro. */
export async function revokeProKeys(trx: Db, proId: string, now: Date): Promise<void> {
  await trx.updateTable('pro_api_keys').set({ revoked_at: now }).where('pro_id', '=', proId).where('revoked_at', 'is', null).execute();
}

/** Whether an error is the one-business-per-address index refusing a second sign-up. */
export const isOwnerEmailTaken = (err: unknown) =>
  (err as { code?: string; constraint?: string }).code === '23505' && (err as { constraint?: string }).constraint === 'pros_owner_email';

/** The business an address signed up, if any. */
export async function proOwnedBy(db: Db, ownerEmail: string): Promise<Pro | undefined> {
  return db.selectFrom('pros').selectAll().where('owner_email', '=', ownerEmail).executeTakeFirst();
}

/** The oldest business of that name, if any. */
export async function proNamed(db: Db, name: string): Promise<Pro | undefined> {
  return db.selectFrom('pros').selectAll().where('name', '=', name).orderBy('created_at').executeTakeFirst();
}

/** Gives a business without an owner this owner address, unless another business has it. */
export async function claimOwnerEmail(db: Db, proId: string, ownerEmail: string): Promise<void> {
  await db
    .updateTable('pros')
    .set({ owner_email: ownerEmail })
    .where('id', '=', proId)
    .where('owner_email', 'is', null)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('pros as o').select('o.id').where('o.owner_email', '=', ownerEmail))))
    .execute();
}

/** Writes a business's settings (checked by the domain's applySettings); returns the row. */
export async function saveSettings(
  trx: Db,
  proId: string,
  s: BusinessSettings & { customer_reminders_set_at: Date | null; review_request_set_at: Date | null },
): Promise<Pro> {
  return trx
    .updateTable('pros')
    .set({
      name: s.name,
      phone: s.phone,
      email: s.email,
      website: s.website,
      service_zips: s.service_zips,
      price_list: JSON.stringify(s.price_list),
      weekly_hours: JSON.stringify(s.weekly_hours),
      travel_buffer_minutes: s.travel_buffer_minutes,
      slot_step_minutes: s.slot_step_minutes,
      min_notice_minutes: s.min_notice_minutes,
      email_me_customer_changes: s.email_me_customer_changes,
      customer_reminder_hours: s.customer_reminder_hours,
      customer_reminders_set_at: s.customer_reminders_set_at,
      review_link: s.review_link,
      review_delay_hours: s.review_delay_hours,
      review_request_set_at: s.review_request_set_at,
      owner_agenda: s.owner_agenda,
      host_turnovers: s.host_turnovers,
    })
    .where('id', '=', proId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The pro a live key belongs to, in one indexed query. */
export async function findProByKey(db: Db, key: string): Promise<Pro | undefined> {
  return proOwning(db, db.selectFrom('pro_api_keys').select('pro_id').where('key_hash', '=', hashSecret(key)).where('revoked_at', 'is', null));
}

/**
 * The business whose id `owner` selects: the `pro_id` of the one row holding a secret's hash
 * (a key, a session, a calendar feed; each hash is unique), in one indexed query.
 */
export async function proOwning(db: Db, owner: SelectQueryBuilder<Database, keyof Database, { pro_id: string }>): Promise<Pro | undefined> {
  return db.selectFrom('pros').selectAll().where('id', '=', owner).executeTakeFirst();
}

export async function getPro(db: Db, id: string): Promise<Pro | undefined> {
  return db.selectFrom('pros').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Pros by key and by id for answers that only read: kept in memory while the change feed
 * announces no change to the pro (its keys, profile, feed, bookings, leads or checks), so a
 * call costs no round trip for them. Writes lock the pro's row instead and never ask this.
 */
export function proReader(db: Db, changes: ChangeFeed | undefined) {
  const byKey = new ProMemo<Pro>(changes);
  const byId = new ProMemo<Pro>(changes);
  // One-shot hashing: the key itself is never kept, and this runs on every call.
  const keyId = (key: string) => hash('sha256', key, 'base64');
  const found = (pro: Pro | undefined) => pro && { proId: pro.id, value: pro };
  return {
    /** The pro of a key this process has already checked, while nothing about it changed. */
    knownKey: (key: string) => byKey.peek(keyId(key)),
    /**
     * A key this process has already checked whose pro changed since (a booking, a lead), but
     * not its keys nor the pro itself: it still opens the same pro, which byKey reads again.
     */
    keyStillGood: (key: string) => byKey.keysUnchangedFor(keyId(key)),
    byKey: (key: string) => byKey.get(keyId(key), async () => found(await findProByKey(db, key))),
    byId: (id: string) => byId.get(id, async () => found(await getPro(db, id))),
  };
}

export function scheduleRules(pro: ProProfile): ScheduleRules {
  return {
    timezone: pro.timezone,
    weekly_hours: pro.weekly_hours,
    travel_buffer_minutes: pro.travel_buffer_minutes,
    slot_step_minutes: pro.slot_step_minutes,
    min_notice_minutes: pro.min_notice_minutes,
  };
}

/** `${config_version}.${event_seq}.${hold_seq}`: changes whenever a pro's open times may have (profile, hours, time off, bookings, holds). */
export function availabilityVersion(pro: Pick<Pro, 'config_version' | 'event_seq' | 'hold_seq'>): string {
  return `${pro.config_version}.${pro.event_seq}.${pro.hold_seq}`;
}

const MAX_CACHED_PROFILES = 20_000;
// Per database: parsed profiles, each good while its config_version is the pro's.
const profileCaches = perOwner<Db, KeptValues<ProProfile, number>>(
  () => new KeptValues(MAX_CACHED_PROFILES, (profile, configVersion) => profile.config_version === configVersion),
);

export interface ServingPro {
  pro: ProProfile;
  /** Changes whenever the pro's availability may have: profile, hours, time off or bookings. */
  availabilityVersion: string;
}

/**
 * The pros serving a ZIP. Parsing every price list on every search was the largest cost of
 * find_cleaners, so parsed profiles are cached per database and checked by config_version
 * (bumped by a trigger on any profile change): one narrow query, plus one for changed rows.
 */
export async function prosServingZip(db: Db, zip: string): Promise<ServingPro[]> {
  const cache = profileCaches(db);
  const heads = await db
    .selectFrom('pros')
    .select(['id', 'config_version', 'event_seq', 'hold_seq'])
    .where(sql<boolean>`service_zips @> ARRAY[${zip}]::text[]`)
    .execute();
  const stale = heads.filter((h) => cache.get(h.id, h.config_version) === undefined).map((h) => h.id);
  if (stale.length > 0) {
    cache.makeRoom(stale.length);
    const rows = await db.selectFrom('pros').selectAll().where('id', 'in', stale).execute();
    for (const { event_seq: _seq, hold_seq: _held, updated_at: _at, ...profile } of rows) cache.set(profile.id, profile);
  }
  const serving: ServingPro[] = [];
  for (const h of heads) {
    // A profile changed between the two reads is newer than its head: take it next time.
    const pro = cache.get(h.id, h.config_version);
    if (!pro || !pro.service_zips.includes(zip)) continue;
    serving.push({ pro, availabilityVersion: availabilityVersion(h) });
  }
  return serving;
}

/** These pros' versions now, by id (a pro gone is missing): what a kept search re-reads of the few that changed. */
export async function proHeads(db: Db, ids: string[]): Promise<Map<string, Pick<Pro, 'config_version' | 'event_seq' | 'hold_seq'>>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('pros').select(['id', 'config_version', 'event_seq', 'hold_seq']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, r]));
}

/** Sets the address that owns a business (null: none); the one-business-per-address index has the last word. */
export async function setOwnerEmail(trx: Db, proId: string, ownerEmail: string | null): Promise<Pro | undefined> {
  return trx.updateTable('pros').set({ owner_email: ownerEmail }).where('id', '=', proId).returningAll().executeTakeFirst();
}
