import type { ColumnType, Generated, Selectable } from 'kysely';

import type { CheckKind } from '@frontdesk/domain';

export type { CheckKind };

export interface ProChecksTable {
  id: string;
  pro_id: string;
  kind: CheckKind;
  /** The website checked, or the marketplace whose profile was seen. */
  subject: string;
  passed: boolean;
  rating: number | null;
  reviews: number | null;
  /** A date, as the check was seen that day. */
  checked_on: ColumnType<string, string, string>;
  created_at: Generated<Date>;
}

export type ProCheck = Selectable<ProChecksTable>;
