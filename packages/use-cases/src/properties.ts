import {
  calendarAddressBad,
  formatLabel,
  formatLocalIso,
  localDate,
  noProperty,
  propertyHasTurnovers,
  propertyNeedsHostContact,
  sameCalendarTwice,
  type PropertyInput,
  type Static,
  type propertySchema,
} from '@frontdesk/domain';
import {
  deletePropertyRow,
  feedsOf,
  insertProperty,
  lockPro,
  lockProperty,
  propertiesOf,
  replaceFeeds,
  staysOf,
  updatePropertyRow,
  upcomingTurnovers,
  type Db,
  type Pro,
  type Property,
  type PropertyFeed,
  type PropertyFields,
  type StayWithClean,
} from '@frontdesk/db';
import { namedCrew } from './crews';
import { cancelTurnover } from './turnover-plan';

export type ShownProperty = Static<typeof propertySchema>;

/** The row's fields from what the caller gave: defaults filled on a new property, only what was sent on a change. */
function rowFields(input: Partial<PropertyInput>): Partial<PropertyFields> {
  const { calendar_urls: _urls, ...rest } = input;
  const out: Partial<PropertyFields> = { ...rest };
  if (input.host_phone === '') out.host_phone = null;
  if (input.host_email === '') out.host_email = null;
  return out;
}

async function checkInput(
  trx: Db,
  proId: string,
  input: Partial<PropertyInput>,
  merged: { host_phone: string | null; host_email: string | null },
): Promise<void> {
  if (!merged.host_phone && !merged.host_email) throw propertyNeedsHostContact();
  if (input.calendar_urls && new Set(input.calendar_urls).size !== input.calendar_urls.length) throw sameCalendarTwice();
  const bad = input.calendar_urls?.find((url) => !URL.canParse(url) || !new URL(url).hostname);
  if (bad !== undefined) throw calendarAddressBad(bad);
  if (input.crew_id) await namedCrew(trx, proId, input.crew_id);
}

/** A new property of the business; its feeds are due at once, so the next sync reads them. */
export function addProperty(db: Db, pro: Pro, input: PropertyInput, now: Date): Promise<ShownProperty> {
  return addPropertyAnd(db, { pro, input, now });
}

/** addProperty, with `first` in its transaction before anything (a host's request: its checks) and `alsoWithin` once the row exists (its link and mail). */
export async function addPropertyAnd(
  db: Db,
  o: { pro: Pro; input: PropertyInput; now: Date; first?: (trx: Db) => Promise<void>; alsoWithin?: (trx: Db, property: Property) => Promise<void> },
): Promise<ShownProperty> {
  const { pro, input, now } = o;
  const property = await db.transaction().execute(async (trx) => {
    await o.first?.(trx);
    const fields = {
      add_ons: [],
      pets: false,
      crew_id: null,
      host_phone: null,
      host_email: null,
      checkout_time: '11:00',
      checkin_time: '15:00',
      mode: 'book' as const,
      ...rowFields(input),
    };
    await checkInput(trx, pro.id, input, fields);
    const added = await insertProperty(trx, { proId: pro.id, fields: fields as PropertyFields, urls: input.calendar_urls, now });
    await o.alsoWithin?.(trx, added);
    return added;
  });
  return (await listProperties(db, pro, now, property.id))[0]!;
}

/** Changes what was sent; new calendar addresses are read at the next sync, dropped ones forgotten. */
export async function updateProperty(db: Db, pro: Pro, input: Partial<PropertyInput> & { property_id: string }, now: Date): Promise<ShownProperty> {
  const { property_id: id, ...change } = input;
  await db.transaction().execute(async (trx) => {
    const property = await lockProperty(trx, pro.id, id);
    if (!property) throw noProperty(id);
    const fields = rowFields(change);
    await checkInput(trx, pro.id, change, { ...property, ...fields });
    await updatePropertyRow(trx, id, fields, now);
    if (change.calendar_urls) await replaceFeeds(trx, property, change.calendar_urls, now);
  });
  return (await listProperties(db, pro, now, id))[0]!;
}

/** Removes a property; its upcoming turnovers are refused unless the caller cancels them with it (the host is not messaged). */
export async function removeProperty(db: Db, pro: Pro, input: { property_id: string; cancel_turnovers?: boolean }, now: Date) {
  return db.transaction().execute(async (trx) => {
    const locked = await lockPro(trx, pro.id);
    const property = locked && (await lockProperty(trx, pro.id, input.property_id));
    if (!locked || !property) throw noProperty(input.property_id);
    const upcoming = await upcomingTurnovers(trx, property.id, now);
    if (upcoming.length && !input.cancel_turnovers) throw propertyHasTurnovers(upcoming.length);
    let cancelled = 0;
    for (const u of upcoming)
      if (u.booking_id && (await cancelTurnover(trx, { pro: locked, property, stayId: u.stay_id, bookingId: u.booking_id, now }))) cancelled++; // no host mail: the owner's act
    await deletePropertyRow(trx, property.id);
    return { property, cancelled };
  });
}

/** The business's properties (or one), each with its feeds' last reads and its upcoming stays and their cleans. */
export async function listProperties(db: Db, pro: Pro, now: Date, id?: string): Promise<ShownProperty[]> {
  const properties = await propertiesOf(db, pro.id, id);
  if (id !== undefined && properties.length === 0) throw noProperty(id);
  const ids = properties.map((p) => p.id);
  const [feeds, stays] = await Promise.all([feedsOf(db, ids), staysOf(db, ids, localDate(now, pro.timezone))]);
  return properties.map((p) =>
    presentProperty(
      p,
      feeds.filter((f) => f.property_id === p.id),
      stays.filter((s) => s.property_id === p.id),
      pro.timezone,
    ),
  );
}

function presentProperty(p: Property, feeds: PropertyFeed[], stays: StayWithClean[], zone: string): ShownProperty {
  return {
    property_id: p.id,
    name: p.name,
    address: p.address,
    zip: p.zip,
    bedrooms: p.bedrooms,
    bathrooms: p.bathrooms,
    add_ons: p.add_ons,
    pets: p.pets,
    crew_id: p.crew_id,
    host_name: p.host_name,
    host_phone: p.host_phone,
    host_email: p.host_email,
    checkout_time: p.checkout_time,
    checkin_time: p.checkin_time,
    mode: p.mode,
    feeds: feeds.map((f) => ({
      url: f.url,
      last_read: f.last_read_at && formatLocalIso(f.last_read_at, zone),
      outcome: f.outcome,
      reason: f.reason,
      stays_listed: f.stays_listed,
    })),
    stays: stays.map((s) => presentStay(s, zone)),
  };
}

function presentStay(s: StayWithClean, zone: string): ShownProperty['stays'][number] {
  const booked = s.booking_id !== null && s.status === 'booked' && s.starts_at !== null;
  const start = booked ? s.starts_at : s.proposed_start;
  return {
    stay_id: s.id,
    check_in: s.start_date,
    checkout: s.end_date,
    source: s.source,
    clean: booked ? 'booked' : s.proposed_start ? 'proposed' : s.attention ? 'needs_attention' : 'none',
    booking_id: booked ? s.booking_id : null,
    start: start && formatLocalIso(start, zone),
    label: start && formatLabel(start, zone),
    crew_name: booked ? s.crew_name : null,
    attention: s.attention,
  };
}
