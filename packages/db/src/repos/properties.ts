import type { Db } from '../connect';
import { newId } from '../ids';
import { hashSecret, propertyManageTokens, type HashKeys } from '../secrets';
import type { NewProperty, Property, PropertyFeed, Stay } from '../tables/properties';
import type { StoppedRental } from '../tables/stopped-rentals';

export type PropertyFields = Omit<NewProperty, 'id' | 'pro_id' | 'created_at' | 'updated_at'>;

/** A new property and its feeds, each read first at once. */
export async function insertProperty(trx: Db, p: { proId: string; fields: PropertyFields; urls: string[]; now: Date }): Promise<Property> {
  const property = await trx
    .insertInto('properties')
    .values({ id: newId('prop'), pro_id: p.proId, ...p.fields, created_at: p.now, updated_at: p.now })
    .returningAll()
    .executeTakeFirstOrThrow();
  await replaceFeeds(trx, property, p.urls, p.now);
  return property;
}

/** The property's feeds become exactly these addresses: a kept address keeps what its reads learnt. */
export async function replaceFeeds(trx: Db, property: Pick<Property, 'id' | 'pro_id'>, urls: string[], now: Date): Promise<void> {
  await trx.deleteFrom('property_feeds').where('property_id', '=', property.id).where('url', 'not in', urls).execute();
  await trx
    .insertInto('property_feeds')
    .values(urls.map((url, position) => ({ id: newId('feed'), property_id: property.id, pro_id: property.pro_id, url, position, next_read_at: now })))
    .onConflict((oc) => oc.columns(['property_id', 'url']).doUpdateSet((eb) => ({ position: eb.ref('excluded.position') })))
    .execute();
}

/** One of the pro's properties, its row locked; another pro's id finds nothing. */
export async function lockProperty(trx: Db, proId: string, id: string): Promise<Property | undefined> {
  return trx.selectFrom('properties').selectAll().where('id', '=', id).where('pro_id', '=', proId).forUpdate().executeTakeFirst();
}

export async function updatePropertyRow(trx: Db, id: string, fields: Partial<PropertyFields>, now: Date): Promise<Property> {
  return trx
    .updateTable('properties')
    .set({ ...fields, updated_at: now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deletePropertyRow(trx: Db, id: string): Promise<void> {
  await trx.deleteFrom('properties').where('id', '=', id).execute();
}

/** The pro's properties, oldest first. */
export async function propertiesOf(db: Db, proId: string, id?: string): Promise<Property[]> {
  let q = db.selectFrom('properties').selectAll().where('pro_id', '=', proId);
  if (id !== undefined) q = q.where('id', '=', id);
  return q.orderBy('created_at').orderBy('id').execute();
}

/** The feeds of these properties, in the order they were given. */
export async function feedsOf(db: Db, propertyIds: string[]): Promise<PropertyFeed[]> {
  if (propertyIds.length === 0) return [];
  return db.selectFrom('property_feeds').selectAll().where('property_id', 'in', propertyIds).orderBy('property_id').orderBy('position').execute();
}

/** A live stay with its clean's booking (start, crew, status), when it has one. */
export type StayWithClean = Stay & { starts_at: Date | null; ends_at: Date | null; crew_name: string | null; status: string | null };

/** The live stays of these properties whose checkout is on or after `fromDate`, soonest first, each with its clean. */
export async function staysOf(db: Db, propertyIds: string[], fromDate: string): Promise<StayWithClean[]> {
  if (propertyIds.length === 0) return [];
  return db
    .selectFrom('stays as s')
    .leftJoin('bookings as b', 'b.id', 's.booking_id')
    .selectAll('s')
    .select(['b.starts_at', 'b.ends_at', 'b.crew_name', 'b.status'])
    .where('s.property_id', 'in', propertyIds)
    .where('s.gone_at', 'is', null)
    .where('s.end_date', '>=', fromDate)
    .orderBy('s.start_date')
    .orderBy('s.id')
    .execute();
}

/** Bookings of the property's stays that have not started (upcoming turnovers), locked. */
export async function upcomingTurnovers(trx: Db, propertyId: string, now: Date): Promise<{ stay_id: string; booking_id: string | null }[]> {
  return trx
    .selectFrom('stays as s')
    .leftJoin('bookings as b', (j) => j.onRef('b.id', '=', 's.booking_id').on('b.status', '=', 'booked'))
    .select(['s.id as stay_id', 'b.id as booking_id'])
    .where('s.property_id', '=', propertyId)
    .where('s.gone_at', 'is', null)
    .where((eb) => eb.or([eb('b.starts_at', '>', now), eb('s.proposed_start', '>', now)]))
    .execute();
}

/** Leases up to `limit` feeds due to be read, none another process holds; each is then this holder's until `until`. */
export async function claimDueFeeds(db: Db, o: { holder: string; now: Date; until: Date; limit: number }): Promise<PropertyFeed[]> {
  return db
    .updateTable('property_feeds')
    .set({ lease_holder: o.holder, lease_until: o.until })
    .where(
      'id',
      'in',
      db
        .selectFrom('property_feeds')
        .select('id')
        .where('next_read_at', '<=', o.now)
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', o.now)]))
        .orderBy('next_read_at')
        .limit(o.limit)
        .forUpdate()
        .skipLocked(),
    )
    .returningAll()
    .execute();
}

export type FeedReadResult = Pick<PropertyFeed, 'etag' | 'last_modified' | 'outcome' | 'reason' | 'stays_listed' | 'empty_reads' | 'failing_told' | 'listed'>;

/** What a read of the feed said, its next read, and its lease given back. */
export async function recordFeedRead(trx: Db, id: string, r: Partial<FeedReadResult> & { at: Date; next: Date }): Promise<void> {
  const { at, next, listed, ...said } = r;
  await trx
    .updateTable('property_feeds')
    .set({ ...said, ...(listed ? { listed: JSON.stringify(listed) } : {}), last_read_at: at, next_read_at: next, lease_holder: null, lease_until: null })
    .where('id', '=', id)
    .execute();
}

/** A property's feed rows, locked, in order. */
export async function lockFeeds(trx: Db, propertyId: string): Promise<PropertyFeed[]> {
  return trx.selectFrom('property_feeds').selectAll().where('property_id', '=', propertyId).orderBy('position').forUpdate().execute();
}

/** The property's live stays, soonest first. */
export async function liveStays(trx: Db, propertyId: string): Promise<Stay[]> {
  return trx.selectFrom('stays').selectAll().where('property_id', '=', propertyId).where('gone_at', 'is', null).orderBy('start_date').orderBy('id').execute();
}

/** New stays of a property, in one statement (a calendar's first read lists a year of them). */
export async function insertStays(
  trx: Db,
  propertyId: string,
  stays: { uids: string[]; start: string; end: string; source: string }[],
  now: Date,
): Promise<Stay[]> {
  if (stays.length === 0) return [];
  return trx
    .insertInto('stays')
    .values(
      stays.map((s) => ({
        id: newId('stay'),
        property_id: propertyId,
        uids: s.uids,
        start_date: s.start,
        end_date: s.end,
        source: s.source,
        first_seen_at: now,
        last_seen_at: now,
      })),
    )
    .returningAll()
    .execute();
}

export async function updateStay(
  trx: Db,
  id: string,
  set: Partial<Pick<Stay, 'uids' | 'start_date' | 'end_date' | 'gone_at' | 'booking_id' | 'proposed_start' | 'proposed_crew_id' | 'attention'>> & {
    last_seen_at?: Date;
  },
): Promise<void> {
  await trx.updateTable('stays').set(set).where('id', '=', id).execute();
}

/** Stays read again as they were: seen now, in one statement. */
export async function touchStays(trx: Db, ids: string[], now: Date): Promise<void> {
  if (ids.length) await trx.updateTable('stays').set({ last_seen_at: now }).where('id', 'in', ids).execute();
}

/**
 * Links a booking to a stay that has none yet, and names the stay's property on the booking (what
 * schedule, booking_status and the calendar feed show); false when another writer linked one
 * first (the caller rolls back).
 */
export async function linkStayBooking(trx: Db, stayId: string, bookingId: string): Promise<boolean> {
  // One statement: the stay takes the booking, and the booking its property, only when the stay had none.
  const linked = await trx
    .with('stay', (db) =>
      db
        .updateTable('stays')
        .set({ booking_id: bookingId, proposed_start: null, proposed_crew_id: null, attention: null })
        .where('id', '=', stayId)
        .where('booking_id', 'is', null)
        .returning('property_id'),
    )
    .updateTable('bookings')
    .set((eb) => ({ property_id: eb.selectFrom('stay').select('property_id') }))
    .where('id', '=', bookingId)
    .where((eb) => eb.exists(eb.selectFrom('stay').select('property_id')))
    .returning('id')
    .executeTakeFirst();
  return linked !== undefined;
}

/** Makes a property host-requested: its manage link's hash stored, the link returned (the same every time for this property). */
export async function setPropertyManageToken(trx: Db, id: string, keys: HashKeys): Promise<string> {
  const token = propertyManageTokens(keys, id)[0]!;
  await trx
    .updateTable('properties')
    .set({ manage_token_hash: hashSecret(token) })
    .where('id', '=', id)
    .execute();
  return token;
}

/** A host-requested property's manage link, made again under whichever key made it; null for the business's own property. */
export function propertyManageToken(keys: HashKeys, p: Pick<Property, 'id' | 'manage_token_hash'>): string | null {
  if (!p.manage_token_hash) return null;
  return propertyManageTokens(keys, p.id).find((t) => hashSecret(t).equals(p.manage_token_hash!)) ?? null;
}

/** The property a manage link opens (locked when asked), or undefined. */
export async function propertyByToken(db: Db, token: string, o: { lock?: boolean } = {}): Promise<Property | undefined> {
  const q = db.selectFrom('properties').selectAll().where('manage_token_hash', '=', hashSecret(token));
  return (o.lock ? q.forUpdate() : q).executeTakeFirst();
}

/** Keeps a stopped rental's link (as its hash), so it still opens what was stopped. */
export async function insertStoppedRental(trx: Db, s: { token: string; proId: string; cancelled: number; now: Date }): Promise<void> {
  await trx
    .insertInto('stopped_rentals')
    .values({ token_hash: hashSecret(s.token), pro_id: s.proId, stopped_at: s.now, cancelled: s.cancelled })
    .onConflict((oc) => oc.column('token_hash').doNothing())
    .execute();
}

/** The stopped rental a manage link opens, or undefined. */
export async function stoppedRentalByToken(db: Db, token: string): Promise<StoppedRental | undefined> {
  return db.selectFrom('stopped_rentals').selectAll().where('token_hash', '=', hashSecret(token)).executeTakeFirst();
}

/** Records the turnover that carries a host-requested property's booking fee. */
export async function setFeeBooking(trx: Db, propertyId: string, bookingId: string): Promise<void> {
  await trx.updateTable('properties').set({ fee_booking_id: bookingId }).where('id', '=', propertyId).execute();
}

/** A property's earliest booked clean that has not started, locked (the one its arrangement's fee belongs on). */
export async function firstUpcomingClean(trx: Db, propertyId: string, now: Date): Promise<{ id: string; fee_cents: number } | undefined> {
  return trx
    .selectFrom('bookings')
    .select(['id', 'fee_cents'])
    .where('property_id', '=', propertyId)
    .where('status', '=', 'booked')
    .where('starts_at', '>', now)
    .orderBy('starts_at')
    .orderBy('id')
    .limit(1)
    .forUpdate()
    .executeTakeFirst();
}

/** Sets the booking fee a turnover carries (the arrangement's one fee moving between its cleans). */
export async function setTurnoverFee(trx: Db, bookingId: string, feeCents: number): Promise<void> {
  await trx.updateTable('bookings').set({ fee_cents: feeCents }).where('id', '=', bookingId).execute();
}

/** The business's property already reading any of these calendar addresses, if one does. */
export async function propertyReading(trx: Db, proId: string, urls: string[]): Promise<Property | undefined> {
  if (urls.length === 0) return undefined;
  return trx
    .selectFrom('properties')
    .selectAll()
    .where('pro_id', '=', proId)
    .where('id', 'in', (eb) => eb.selectFrom('property_feeds').select('property_id').where('pro_id', '=', proId).where('url', 'in', urls))
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirst();
}
