import {
  CLIENTS_PAGE,
  CLIENT_LEADS_SHOWN,
  CLIENT_PAST_SHOWN,
  clientNotesSaved,
  clientSearchTerms,
  clientsCursor,
  formatLabel,
  formatLocalIso,
  localDate,
  noClient,
  readClientsCursor,
  toUsd,
  wallTimeOrNextInstant,
  type ClientsAfter,
  type Static,
  type clientLineSchema,
  type clientSchema,
  type clientVisitSchema,
} from '@frontdesk/domain';
import {
  clientBookedWorth,
  clientLeads,
  clientSeries,
  clientVisits,
  clientsPage,
  getClient,
  perOwner,
  ProMemo,
  setClientNotes,
  type Booking,
  type ChangeFeed,
  type Client,
  type ClientLine,
  type Db,
  type Pro,
} from '@frontdesk/db';

/**
 * The client list and a client's history (issue 35): who the business works for, found by
 * part of a name, phone number, email or address, with their visits, plans and the owner's
 * notes. Who one client is, is the database's rule (migration 20261127T140000-clients).
 */

const label = (at: Date | null, pro: Pro, now: Date) => (at ? formatLabel(at, pro.timezone, now) : null);

function presentLine(c: ClientLine, pro: Pro, now: Date): Static<typeof clientLineSchema> {
  return {
    client_id: c.id,
    name: c.name,
    phone: c.phone,
    email: c.email,
    address: c.address,
    zip: c.zip,
    booked_jobs: c.booked_jobs,
    next_visit: label(c.next_start, pro, now),
    last_visit: label(c.last_start, pro, now),
  };
}

/** A page of the client list as list_clients answers it. */
type ClientsAnswer = { count: number; clients: Static<typeof clientLineSchema>[]; next_cursor: string | null };

/** A page kept in memory, and the instant it stops being true with nothing written: a shown client's visit starts, or the year its labels leave out ends. */
interface KeptPage {
  answer: ClientsAnswer;
  until: number;
}
const MAX_KEPT_PAGES = 500;
// Per change feed (per process): pages of each pro's client list, void once the feed hears any
// change to the pro. Clients are written only by the bookings' and leads' triggers (which the
// feed hears) and by update_client_notes, whose notes no page of the list shows.
const keptPages = perOwner((changes: ChangeFeed) => new ProMemo<KeptPage>(changes, MAX_KEPT_PAGES));

/** A page of the client list, in name order; `next_cursor` is null on the last page. Kept while the pro is unchanged. */
export async function listClients(db: Db, pro: Pro, input: { search?: string; cursor?: string; limit?: number }, o: { now: Date; changes?: ChangeFeed }) {
  const { now, changes } = o;
  const limit = input.limit ?? CLIENTS_PAGE.default;
  const after = input.cursor ? readClientsCursor(input.cursor) : null;
  const terms = clientSearchTerms(input.search);
  const read = () => readClientsPage(db, pro, { terms, after, limit }, now);
  if (!changes?.live) return (await read()).answer;
  const key = JSON.stringify([pro.id, terms, after?.name, after?.id, limit]);
  const kept = await keptPages(changes).get(
    key,
    async () => ({ proId: pro.id, value: await read() }),
    (page) => now.getTime() < page.until,
  );
  return kept!.answer;
}

async function readClientsPage(db: Db, pro: Pro, q: { terms: string[]; after: ClientsAfter | null; limit: number }, now: Date): Promise<KeptPage> {
  const rows = await clientsPage(db, pro.id, { ...q, limit: q.limit + 1, now });
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  const nextYear = wallTimeOrNextInstant(`${Number(localDate(now, pro.timezone).slice(0, 4)) + 1}-01-01`, 0, pro.timezone).getTime();
  return {
    answer: {
      count: page.length,
      clients: page.map((c) => presentLine(c, pro, now)),
      next_cursor: rows.length > q.limit && last ? clientsCursor({ name: last.sort_name, id: last.id }) : null,
    },
    until: Math.min(nextYear, ...page.map((c) => c.soonest_start?.getTime() ?? Infinity)),
  };
}

function presentClient(c: Client): Static<typeof clientSchema> {
  return {
    client_id: c.id,
    name: c.name,
    phone: c.phone,
    email: c.email,
    address: c.address,
    zip: c.zip,
    notes: c.notes,
  };
}

function presentVisit(b: Booking, pro: Pro, now: Date): Static<typeof clientVisitSchema> {
  return {
    booking_id: b.id,
    series_id: b.series_id,
    status: b.status,
    start: formatLocalIso(b.starts_at, pro.timezone),
    label: formatLabel(b.starts_at, pro.timezone, now),
    crew_name: b.crew_name,
    address: b.address,
    zip: b.zip,
    job: { bedrooms: b.bedrooms, bathrooms: b.bathrooms, clean_type: b.clean_type, sqft: b.sqft, frequency: b.frequency, add_ons: b.add_ons, pets: b.pets },
    total: toUsd(b.price_cents),
  };
}

/** A client of this business, or the refusal naming the id. */
async function clientOf(db: Db, pro: Pro, id: string): Promise<Client> {
  const client = await getClient(db, pro.id, id);
  if (!client) throw noClient(id);
  return client;
}

/** A client's history: upcoming visits, the newest past ones, their plans and leads, what is booked in all, and the owner's notes. */
export async function clientHistory(db: Db, pro: Pro, clientId: string, now: Date) {
  const client = await clientOf(db, pro, clientId);
  const [visits, worth, series, leads] = await Promise.all([
    clientVisits(db, client.id, { now, pastLimit: CLIENT_PAST_SHOWN }),
    clientBookedWorth(db, client.id),
    clientSeries(db, client.id, now),
    clientLeads(db, client.id, CLIENT_LEADS_SHOWN),
  ]);
  return {
    client: presentClient(client),
    total_booked: toUsd(worth.cents),
    booked_visits: worth.visits,
    upcoming: visits.upcoming.map((b) => presentVisit(b, pro, now)),
    past: visits.past.map((b) => presentVisit(b, pro, now)),
    plans: series.map((s) => ({
      series_id: s.id,
      frequency: s.frequency,
      ended: s.ended_at !== null || s.next_start === null,
      next_visit: label(s.next_start, pro, now),
      crew_name: s.crew_name,
    })),
    leads: leads.map((l) => ({
      lead_id: l.id,
      source: l.source,
      status: l.status,
      quote_total: l.quote_total_cents === null ? null : toUsd(l.quote_total_cents),
      logged_at: l.created_at.toISOString(),
    })),
  };
}

/** Replaces the owner's notes about a client (empty clears them); one statement, so one transaction. */
export async function updateClientNotes(db: Db, pro: Pro, input: { client_id: string; notes: string }, now: Date) {
  const notes = input.notes.trim() === '' ? null : input.notes;
  const saved = await setClientNotes(db, pro.id, input.client_id, { notes, now });
  if (!saved) throw noClient(input.client_id);
  return { client_id: saved.id, notes: saved.notes, message: clientNotesSaved(saved.name ?? saved.email ?? saved.phone ?? saved.id) };
}
