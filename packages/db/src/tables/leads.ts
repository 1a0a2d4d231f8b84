import type { ColumnType, Generated, Selectable } from 'kysely';
import type { BadLeadReason, CleanType, Frequency, LeadSource, LeadStatus } from '@frontdesk/domain';

export { LEAD_SOURCES, LEAD_STATUSES, type LeadSource, type LeadStatus } from '@frontdesk/domain';

export interface LeadsTable {
  id: string;
  pro_id: string;
  source: LeadSource;
  lead_ref: string | null;
  /** Always null for platform sources: the contract forbids storing them. */
  customer_first_name: string | null;
  contact: string | null;
  zip: string | null;
  lead_cost_cents: Generated<number>;
  bedrooms: number | null;
  bathrooms: number | null;
  clean_type: CleanType;
  sqft: number | null;
  frequency: Frequency;
  add_ons: string[];
  pets: boolean;
  status: Generated<LeadStatus>;
  contacted: Generated<boolean>;
  follow_ups_sent: Generated<number>;
  last_follow_up_at: Date | null;
  quote_total_cents: number | null;
  quote: ColumnType<unknown, string | null, string | null> | null;
  notes: string | null;
  /** The client a direct lead with a contact is (set by the database; never a platform lead). */
  client_id: Generated<string | null>;
  flag_reason: BadLeadReason | null;
  flag_evidence: ColumnType<string[], string | null, string | null> | null;
  flagged_at: Date | null;
  quoted_at: Generated<Date>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export type Lead = Selectable<LeadsTable>;
