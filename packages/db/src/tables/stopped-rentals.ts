import type { Selectable } from 'kysely';

/** A rental its host stopped: what its link still opens (the property itself is gone). */
export interface StoppedRentalsTable {
  /** The rental's manage link, as a hash. */
  token_hash: Buffer;
  pro_id: string;
  stopped_at: Date;
  /** How many upcoming cleans stopping cancelled. */
  cancelled: number;
}

export type StoppedRental = Selectable<StoppedRentalsTable>;
