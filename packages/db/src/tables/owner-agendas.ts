/** One business's morning agenda of one local day, made once: the key is what keeps it to one. */
export interface OwnerAgendasTable {
  pro_id: string;
  /** The business's local day (YYYY-MM-DD) the agenda lists. */
  local_date: string;
  /** How many jobs it listed and how many mails it queued (none on a day without jobs). */
  jobs: number;
  mails: number;
  made_at: Date;
}
