import { InvalidInputError } from '../errors';

/**
 * The refusal of a job not offered: its clean type, its add-ons, or both, each with what is
 * offered instead. Said of one business (quote_job, open_times, book_*), or with `zip` of
 * every cleaner serving that ZIP (find_cleaners). Nothing is priced or booked.
 */
export const jobNotOffered = (o: {
  cleanType?: { asked: string; offered: readonly string[] };
  addOns?: { missing: readonly string[]; offered: readonly string[] };
  zip?: string;
}) => {
  const none = o.zip === undefined ? 'This business does not offer' : `No cleaner serving ZIP ${o.zip} offers`;
  const there = o.zip === undefined ? '' : ' there';
  const problems: string[] = [];
  if (o.cleanType) {
    problems.push(`${none} the clean type "${o.cleanType.asked}"; clean types offered${there}: ${o.cleanType.offered.join(', ')}.`);
  }
  if (o.addOns) {
    const { missing, offered } = o.addOns;
    problems.push(
      `${none} the add-on${missing.length > 1 ? 's' : ''} ${missing.map((m) => `"${m}"`).join(', ')}; add-ons offered${there}: ${offered.length ? offered.join(', ') : 'none'}.`,
    );
  }
  return new InvalidInputError(problems.join(' '));
};
