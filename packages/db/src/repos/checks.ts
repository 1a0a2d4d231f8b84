import { InvalidInputError, isValidLocalDate } from '@frontdesk/domain';
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

/** Records a best-effort check of a pro, as seen on the day it was made. */
export async function addProCheck(db: Db, c: NewCheck): Promise<ProCheck> {
  if (!isValidLocalDate(c.checkedOn)) throw new InvalidInputError(`date "${c.checkedOn}" is not a real day (YYYY-MM-DD).`);
  if (!c.subject.trim()) throw new InvalidInputError('Say what was checked: the website, or the marketplace of the profile.');
  if (c.kind === 'website_ownership' && (c.rating != null || c.reviews != null)) {
    throw new InvalidInputError('A website check has no rating or reviews.');
  }
  if (c.rating != null && !(c.rating >= 0 && c.rating <= 5)) throw new InvalidInputError('rating must be from 0 to 5.');
  if (c.reviews != null && !(Number.isInteger(c.reviews) && c.reviews >= 0)) throw new InvalidInputError('reviews must be a whole number, 0 or more.');
  return db
    .insertInto('pro_checks')
    .values({ id: newId('chk'), pro_id: c.proId, kind: c.kind, subject: c.subject.trim(), passed: c.passed, rating: c.rating ?? null, reviews: c.reviews ?? null, checked_on: c.checkedOn })
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

/** A check in words: dated, best-effort, never a guarantee. */
export function presentCheck(c: ProCheck) {
  const checkedOn = c.checked_on;
  const summary =
    c.kind === 'website_ownership'
      ? c.passed
        ? `On ${checkedOn} the website ${c.subject} appeared to belong to this business.`
        : `On ${checkedOn} we could not confirm that the website ${c.subject} belongs to this business.`
      : c.passed
        ? `On ${checkedOn} a profile on ${c.subject} was found${c.rating != null ? `, rated ${c.rating} of 5${c.reviews != null ? ` from ${c.reviews} reviews` : ''}` : ''}.`
        : `On ${checkedOn} no profile on ${c.subject} could be found.`;
  return { kind: c.kind, subject: c.subject, passed: c.passed, rating: c.rating, reviews: c.reviews, checked_on: checkedOn, summary };
}
