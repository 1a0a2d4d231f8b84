import type { ColumnType, Generated, Selectable } from 'kysely';

/**
 * A business's client: one person, found again by their email (else their phone's digits),
 * added and kept current by the database from every booking and direct lead that names them
 * (migration 20261127T140000-clients). Only the owner's notes are written by our code.
 */
export interface ClientsTable {
  id: string;
  pro_id: string;
  /** 'email:<address>' or 'phone:<last 10 digits>': who the client is, unique in the business. */
  identity: string;
  name: string | null;
  phone: string | null;
  email: string | null;
  address: string | null;
  zip: string | null;
  /** The name lower-cased (else email, else phone): the list's order. */
  sort_name: ColumnType<string, never, never>;
  /** Every name, email, phone (digits) and address the client was seen with, lower-cased. */
  search: Generated<string>;
  notes: string | null;
  notes_updated_at: Date | null;
  first_seen_at: Generated<Date>;
  last_seen_at: Generated<Date>;
}

export type Client = Selectable<ClientsTable>;
