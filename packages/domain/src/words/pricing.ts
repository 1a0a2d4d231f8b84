import { InvalidInputError } from '../errors';

/**
 * The refusal of a job the business does not offer: its clean type, its add-ons, or both,
 * each with what is offered instead. Nothing is priced or booked.
 */
export const jobNotOffered = (o: {
  cleanType?: { asked: string; offered: readonly string[] };
  addOns?: { missing: readonly string[]; offered: readonly string[] };
}) => {
  const problems: string[] = [];
  if (o.cleanType) {
    problems.push(`This business does not offer the clean type "${o.cleanType.asked}"; clean types offered: ${o.cleanType.offered.join(', ')}.`);
  }
  if (o.addOns) {
    const { missing, offered } = o.addOns;
    problems.push(
      `This business does not offer the add-on${missing.length > 1 ? 's' : ''} ${missing.map((m) => `"${m}"`).join(', ')}; add-ons offered: ${offered.length ? offered.join(', ') : 'none'}.`,
    );
  }
  return new InvalidInputError(problems.join(' '));
};
