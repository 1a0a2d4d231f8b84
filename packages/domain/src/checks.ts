import { checkDateNotReal, checkSubjectMissing, ratingOutOfRange, reviewsNotWhole, websiteCheckRated } from './words/checks';
import { isValidLocalDate } from './time';

/** A best-effort check of a business: its website, or a profile on a marketplace. */
export type CheckKind = 'website_ownership' | 'marketplace_profile';

export interface CheckFacts {
  kind: CheckKind;
  subject: string;
  passed: boolean;
  rating?: number | null;
  reviews?: number | null;
  checked_on: string;
}

/** Refuses a check that cannot be recorded as given. */
export function checkCheck(c: CheckFacts): void {
  if (!isValidLocalDate(c.checked_on)) throw checkDateNotReal(c.checked_on);
  if (!c.subject.trim()) throw checkSubjectMissing();
  if (c.kind === 'website_ownership' && (c.rating != null || c.reviews != null)) throw websiteCheckRated();
  if (c.rating != null && !(c.rating >= 0 && c.rating <= 5)) throw ratingOutOfRange();
  if (c.reviews != null && !(Number.isInteger(c.reviews) && c.reviews >= 0)) throw reviewsNotWhole();
}

/** A check in words: dated, best-effort, never a guarantee. */
export function checkSummary(c: CheckFacts): string {
  const on = c.checked_on;
  if (c.kind === 'website_ownership') {
    return c.passed
      ? `On ${on} the website ${c.subject} appeared to belong to this business.`
      : `On ${on} we could not confirm that the website ${c.subject} belongs to this business.`;
  }
  if (!c.passed) return `On ${on} no profile on ${c.subject} could be found.`;
  const rated = c.rating != null ? `, rated ${c.rating} of 5${c.reviews != null ? ` from ${c.reviews} reviews` : ''}` : '';
  return `On ${on} a profile on ${c.subject} was found${rated}.`;
}

export const CHECKS_NOTE =
  'Best-effort checks the service made on the dates shown, not a guarantee or an endorsement. Each business is independent; the service does not check licenses or insurance.';
