import type { Db } from '../connect';
import { newId } from '../ids';
import type { CheckKind, ProCheck } from '../tables/pro-checks';

export interface NewCheck {
  proId: string;
  kind: CheckKind;
  subject: string;
  passed: boolean;
  rating?: number | null;
  reviews?: number | null;
  checkedOn: string;
}

/** Records a best-effort check of a pro (judged by the caller), as seen on the day it was made. */
export async function insertProCheck(db: Db, c: NewCheck): Promise<ProCheck> {
  return db
    .insertInto('pro_checks')
    .values({
      id: newId('chk'),
      pro_id: c.proId,
      kind: c.kind,
      subject: c.subject,
      passed: c.passed,
      rating: c.rating ?? null,
      reviews: c.reviews ?? null,
      checked_on: c.checkedOn,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The newest check of each kind and subject, for many pros in one query. */
export async function latestChecks(db: Db, proIds: string[]): Promise<Map<string, ProCheck[]>> {
  const byPro = new Map<string, ProCheck[]>();
  if (proIds.length === 0) return byPro;
  const rows = await db
    .selectFrom('pro_checks')
    .selectAll()
    .distinctOn(['pro_id', 'kind', 'subject'])
    .where('pro_id', 'in', proIds)
    .orderBy('pro_id')
    .orderBy('kind')
    .orderBy('subject')
    .orderBy('checked_on', 'desc')
    .execute();
  for (const r of rows) byPro.set(r.pro_id, [...(byPro.get(r.pro_id) ?? []), r]);
  return byPro;
}

/** Whether the pro has any check recorded. */
export async function hasProChecks(db: Db, proId: string): Promise<boolean> {
  return (await db.selectFrom('pro_checks').select('id').where('pro_id', '=', proId).limit(1).executeTakeFirst()) !== undefined;
}
