import { recordCheck, createBooking, createBusiness, holdForBusiness } from '@frontdesk/use-cases';
import { proBookingRequest } from '@frontdesk/use-cases/testing';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { createProSession, crewsOf, insertCrew, newId, type Db } from '@frontdesk/db';
import { DEFAULT_PRICE_LIST, addDays, isoWeekday, localDate, normalizeJob, priceJob, wallTimeToInstant } from '@frontdesk/domain';

const DAY = 86_400_000;
const allDay = Object.fromEntries(['1', '2', '3', '4', '5', '6', '7'].map((d) => [d, [{ start: '00:00', end: '24:00' }]]));

function bookingRow(pro: { id: string; crewId: string }, start: Date, i: number) {
  const quote = priceJob(normalizeJob({ bedrooms: 0, bathrooms: 1 }), DEFAULT_PRICE_LIST);
  const end = new Date(start.getTime() + quote.duration_minutes * 60_000);
  return {
    id: newId('bk'),
    pro_id: pro.id,
    crew_id: pro.crewId,
    lead_id: null,
    channel: 'pro' as const,
    client_name: null,
    starts_at: start,
    ends_at: end,
    blocked_until: new Date(end.getTime() + 30 * 60_000),
    customer_name: `Customer ${i}`,
    customer_phone: '555-0100',
    customer_email: null,
    address: '1 Main St',
    zip: '10001',
    notes: null,
    access_details: null,
    bedrooms: 0,
    bathrooms: 1,
    clean_type: 'standard' as const,
    sqft: null,
    frequency: 'once' as const,
    add_ons: [],
    pets: false,
    price_cents: quote.total_cents,
    quote: JSON.stringify(quote),
    fee_waived_at: null,
    manage_token_hash: null,
    account_email: null,
    cancelled_at: null,
    cancelled_by: null,
    no_show_reported_at: null,
  };
}

/** Gives a business crews up to `count` in all, named Crew 2, Crew 3, …; returns every crew id in crew order. */
async function withCrews(db: Db, proId: string, count: number): Promise<string[]> {
  for (let c = 2; c <= count; c += 1) await insertCrew(db, { proId, name: `Crew ${c}`, weeklyHours: null, now: new Date() });
  return (await crewsOf(db, proId)).map((c) => c.id);
}

/**
 * One pro open around the clock with 300 future bookings per crew, 15 a day (the open_times
 * case); with several crews each crew's day is shifted, so every crew is partly busy at most starts.
 */
export async function seedBusyPro(db: Db, crews = 1) {
  const { pro, apiKey } = await createBusiness(db, {
    name: crews === 1 ? 'Bench Cleaning' : `Bench Cleaning ${crews} crews`,
    timezone: 'America/New_York',
    service_zips: ['10001'],
    weekly_hours: allDay,
    min_notice_minutes: 0,
  });
  const first = Math.ceil(Date.now() / DAY) * DAY + DAY;
  for (const [c, crewId] of (await withCrews(db, pro.id, crews)).entries()) {
    const shift = c * 30 * 60_000;
    const rows = Array.from({ length: 300 }, (_, i) =>
      bookingRow({ id: pro.id, crewId }, new Date(first + Math.floor(i / 15) * DAY + (i % 15) * 75 * 60_000 + shift), i),
    );
    await db.insertInto('bookings').values(rows).execute();
  }
  const inWindow = await sql<{
    n: number;
  }>`SELECT count(*)::int AS n FROM bookings WHERE pro_id = ${pro.id} AND starts_at < now() + interval '21 days'`.execute(db);
  return { pro, apiKey, inWindow: inWindow.rows[0]!.n };
}

/**
 * 200 pros serving one ZIP, each with its own prices, two dated checks and 100 future
 * bookings (4 a day over 25 days, in working hours): the find_cleaners case.
 */
export async function seedCrowdedZip(db: Db, zip: string, pros = 200, bookingsEach = 100, crews = 1): Promise<string[]> {
  const first = Math.ceil(Date.now() / DAY) * DAY + DAY;
  const ids: string[] = [];
  for (let p = 0; p < pros; p += 1) {
    const { pro } = await createBusiness(db, {
      name: `Crowd ${p} ${randomBytes(2).toString('hex')}`,
      timezone: 'America/New_York',
      service_zips: [zip, '10001'],
      price_list: { ...DEFAULT_PRICE_LIST, base_cents: 4000 + ((p * 37) % 50) * 100 },
    });
    ids.push(pro.id);
    // 13:00Z, 15:00Z, 17:00Z, 19:00Z are 08:00-14:00 in New York: inside the default hours.
    for (const [c, crewId] of (await withCrews(db, pro.id, crews)).entries()) {
      const rows = Array.from({ length: bookingsEach }, (_, i) =>
        bookingRow({ id: pro.id, crewId }, new Date(first + Math.floor(i / 4) * DAY + (13 + (i % 4) * 2) * 3_600_000 + ((p + c) % 3) * 30 * 60_000), i),
      );
      await db.insertInto('bookings').values(rows).execute();
    }
    await recordCheck(db, { proId: pro.id, kind: 'website_ownership', subject: `crowd${p}.example`, passed: true, checkedOn: '2026-11-20' });
    await recordCheck(db, {
      proId: pro.id,
      kind: 'marketplace_profile',
      subject: 'marketplace_1',
      passed: true,
      rating: 4.5,
      reviews: 10 + p,
      checkedOn: '2026-11-20',
    });
  }
  await sql`VACUUM ANALYZE`.execute(db);
  return ids;
}

/** A pro whose feed already holds 2,000 events (the updates case); its key and the feed's head. */
export async function seedFeedPro(db: Db) {
  const { pro, apiKey } = await createBusiness(db, { name: 'Busy Feed Cleaning', timezone: 'America/New_York', service_zips: ['10001'] });
  await sql`
    WITH e AS (
      INSERT INTO events (pro_id, seq, kind, payload, created_at)
      SELECT ${pro.id}, g, 'booking.created', jsonb_build_object('booking_id', 'bk_seed_' || g, 'message', 'A seeded booking'),
             now() - interval '30 days' + g * interval '20 minutes'
        FROM generate_series(1, 2000) g
      RETURNING seq
    )
    UPDATE pros SET event_seq = (SELECT max(seq) FROM e) WHERE id = ${pro.id}`.execute(db);
  return { pro, apiKey, head: 2000 };
}

/**
 * Businesses open around the clock (in UTC, so a day is always 24 hours) with one crew and
 * nothing booked, for the hold-then-book pair: `slot(k)` gives the k-th (business, start) in a
 * sequence that never repeats a crew's time (16 starts a day, 90 minutes apart: a 45-minute job
 * and its 30-minute buffer fit between two, and the last ends before midnight), so every pair
 * can succeed however many run.
 */
export async function seedHoldPros(db: Db, pros = 64) {
  const ids: string[] = [];
  for (let p = 0; p < pros; p += 1) {
    const { pro } = await createBusiness(db, {
      name: `Hold Bench ${p}`,
      timezone: 'UTC',
      service_zips: ['10001'],
      weekly_hours: allDay,
      min_notice_minutes: 0,
    });
    ids.push(pro.id);
  }
  const first = Math.ceil(Date.now() / DAY) * DAY + DAY;
  const slot = (k: number) => {
    const n = Math.floor(k / pros);
    return { cleanerId: ids[k % pros]!, start: new Date(first + Math.floor(n / 16) * DAY + (n % 16) * 90 * 60_000).toISOString() };
  };
  return { ids, slot };
}

/**
 * A business open 8 am to 6 pm every day in New York with `holds` live holds pencilled in on its
 * own host for 48 hours (longer than any run), five a day from tomorrow at 8, 10, 12, 2 and 4,
 * none booked: the available_times case. Its day is a working day, as a customer's assistant
 * meets it, so the case measures what the holds cost rather than the size of a round-the-clock
 * answer.
 */
export async function seedHeldPro(db: Db, holds = 100) {
  const zone = 'America/New_York';
  const { pro } = await createBusiness(db, {
    name: 'Bench Held Cleaning',
    timezone: zone,
    service_zips: ['10001'],
    weekly_hours: Object.fromEntries(['1', '2', '3', '4', '5', '6', '7'].map((d) => [d, [{ start: '08:00', end: '18:00' }]])),
    min_notice_minutes: 0,
  });
  const tomorrow = addDays(localDate(new Date(), zone), 1);
  for (let i = 0; i < holds; i += 1) {
    const start = wallTimeToInstant(addDays(tomorrow, Math.floor(i / 5)), (8 + (i % 5) * 2) * 60, zone)!.toISOString();
    await holdForBusiness(db, pro, { bedrooms: 0, bathrooms: 1, start, minutes: 2880 }, new Date());
  }
  return { pro };
}

/**
 * A business of 10 crews with 300 jobs in one week (30 a crew: five a day Monday to Saturday,
 * every two hours from 8 AM, New York time), and a dashboard session of its owner: the board
 * page case. Returns the week's Monday and the session token for the page's cookie.
 */
export async function seedBoardPro(db: Db) {
  const { pro } = await createBusiness(db, {
    name: 'Bench Board Cleaning',
    timezone: 'America/New_York',
    service_zips: ['10001'],
    weekly_hours: Object.fromEntries(['1', '2', '3', '4', '5', '6'].map((d) => [d, [{ start: '07:00', end: '19:00' }]])),
  });
  const today = localDate(new Date(), pro.timezone);
  const week = addDays(today, 8 - isoWeekday(today));
  for (const crewId of await withCrews(db, pro.id, 10)) {
    const rows = Array.from({ length: 30 }, (_, i) =>
      bookingRow({ id: pro.id, crewId }, wallTimeToInstant(addDays(week, Math.floor(i / 5)), (8 + (i % 5) * 2) * 60, pro.timezone)!, i),
    );
    await db.insertInto('bookings').values(rows).execute();
  }
  const token = await createProSession(db, pro.id, new Date(Date.now() + DAY), new Date());
  return { pro, week, token };
}

const FIRST_NAMES = [
  'Ana',
  'Bo',
  'Cy',
  'Dee',
  'Eli',
  'Fay',
  'Gus',
  'Hana',
  'Ivo',
  'Jo',
  'Kim',
  'Lee',
  'Mia',
  'Noor',
  'Omar',
  'Pia',
  'Quinn',
  'Rae',
  'Sam',
  'Tess',
];
const LAST_NAMES = ['Lopez', 'Chen', 'Park', 'Ray', 'Stone', 'Diaz', 'Kaur', 'Novak', 'Okafor', 'Rossi', 'Sato', 'Berg', 'Ivanova', 'Haddad', 'Nguyen'];
const STREETS = ['Grove St', 'Harbor View', 'Main St', 'Oak Ave', 'Elm Rd', 'Pier Ln', 'Bay Ridge Pkwy', 'Court St'];

/**
 * A business with `clients` clients (the client list case), each booked once in the past on its
 * one crew, two hours apart: a name, phone, email and street of their own, as people have.
 */
export async function seedClientsPro(db: Db, clients = 5000) {
  const { pro, apiKey } = await createBusiness(db, { name: 'Many Clients Cleaning', timezone: 'America/New_York', service_zips: ['10001'] });
  const [crewId] = await withCrews(db, pro.id, 1);
  const last = Math.floor(Date.now() / DAY) * DAY - DAY;
  for (let from = 0; from < clients; from += 500) {
    const rows = Array.from({ length: Math.min(500, clients - from) }, (_, k) => {
      const i = from + k;
      const [first, family] = [FIRST_NAMES[i % FIRST_NAMES.length]!, LAST_NAMES[Math.floor(i / FIRST_NAMES.length) % LAST_NAMES.length]!];
      return {
        ...bookingRow({ id: pro.id, crewId: crewId! }, new Date(last - i * 2 * 3_600_000), i),
        customer_name: `${first} ${family} ${i}`,
        customer_phone: `(${200 + (i % 700)}) 555-${String(i).padStart(4, '0')}`,
        customer_email: `${first.toLowerCase()}.${family.toLowerCase()}${i}@example.com`,
        address: `${1 + (i % 400)} ${STREETS[i % STREETS.length]}, Apt ${i}`,
      };
    });
    await db.insertInto('bookings').values(rows).execute();
  }
  await sql`VACUUM ANALYZE clients`.execute(db);
  return { pro, apiKey };
}

/** Books random slots of the given pros every `everyMs` through the real booking path, until stopped. */
export function bookContinuously(db: Db, proIds: string[], zip: string, everyMs: number) {
  let running = true;
  const counts = { attempted: 0, booked: 0 };
  const job = normalizeJob({ bedrooms: 1, bathrooms: 1 });
  const loop = (async () => {
    for (let i = 0; running; i += 1) {
      // Weekdays past the seeded bookings, 08:00-14:00 in New York: most tries land.
      let day = Math.ceil(Date.now() / 86_400_000) * 86_400_000 + (30 + Math.floor(i / (4 * proIds.length))) * 86_400_000;
      while ([0, 6].includes(new Date(day).getUTCDay())) day += 86_400_000;
      const start = new Date(day + (13 + 2 * (Math.floor(i / proIds.length) % 4)) * 3_600_000);
      counts.attempted += 1;
      try {
        const customer = { name: 'Writer', phone: '2125550100', email: null };
        await createBooking(
          db,
          proBookingRequest(proIds[i % proIds.length]!, start, new Date(), { job, customer, zip, channel: 'book', clientName: 'bench', feeCents: 500 }),
        );
        counts.booked += 1;
      } catch {
        // taken or outside hours: a refusal is part of the traffic
      }
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return counts;
    },
  };
}
