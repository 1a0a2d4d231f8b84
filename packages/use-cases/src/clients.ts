import {
  CLIENTS_PAGE,
  CLIENT_LEADS_SHOWN,
  CLIENT_PAST_SHOWN,
  clientNotesSaved,
  clientSearchTerms,
  clientsCursor,
  formatLabel,
  formatLocalIso,
  noClient,
  readClientsCursor,
  toUsd,
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
  setClientNotes,
  type Booking,
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

/** A page of the client list, in name order; `next_cursor` is null on the last page. */
export async function listClients(db: Db, pro: Pro, input: { search?: string; cursor?: string; limit?: number }, now: Date) {
  const limit = input.limit ?? CLIENTS_PAGE.default;
  const after = input.cursor ? readClientsCursor(input.cursor) : null;
  const rows = await clientsPage(db, pro.id, { terms: clientSearchTerms(input.search), after, limit: limit + 1, now });
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    count: page.length,
    clients: page.map((c) => presentLine(c, pro, now)),
    next_cursor: rows.length > limit && last ? clientsCursor({ name: last.sort_name, id: last.id }) : null,
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
