import { InvalidInputError } from '../errors';

/** Refusals of a check of a business (its website, or a marketplace profile) that cannot be recorded as given. */

export const checkDateNotReal = (date: string) => new InvalidInputError(`date "${date}" is not a real day (YYYY-MM-DD).`);
export const checkSubjectMissing = () => new InvalidInputError('Say what was checked: the website, or the marketplace of the profile.');
export const websiteCheckRated = () => new InvalidInputError('A website check has no rating or reviews.');
export const ratingOutOfRange = () => new InvalidInputError('rating must be from 0 to 5.');
export const reviewsNotWhole = () => new InvalidInputError('reviews must be a whole number, 0 or more.');
