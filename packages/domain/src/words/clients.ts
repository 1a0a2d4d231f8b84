import { InvalidInputError, NotFoundError } from '../errors';

/** What the client list and a client's page say: refusals for assistants and the owner's page words. */

export const badClientsCursor = () => new InvalidInputError('cursor is not one list_clients gave: pass next_cursor back unchanged, or leave it out.');
export const noClient = (id: string) => new NotFoundError(`No client with id ${id} on this business; list_clients lists them.`);
export const clientNotOnDashboard = () =>
  new NotFoundError('That client is not in your client list (it may belong to another business, or the link is mistyped).');
export const noJobToBookAgain = () => new NotFoundError('That client has no job to book again: they have only been logged as a lead so far.');

export const clientNotesSaved = (name: string) => `Saved your notes about ${name}.`;
export const clientBookedAgain = (name: string, label: string) => `Booked ${name} again on ${label}. We have not told ${name}; let them know the time.`;

export const NO_CLIENTS_YET = 'No clients yet: everyone who books, and every direct lead you log with a phone or email, is listed here.';
export const NO_CLIENTS_FOUND = 'No client matches that search. Try part of a name, phone number, email or street.';

/** How a client's lead came in, in the owner's words (a client's leads are direct ones only). */
export const DIRECT_SOURCE_WORDS: Record<string, string> = {
  website: 'your website',
  referral: 'a referral',
  social_1: 'social media',
  social_2: 'social media',
  other: 'another way',
};
/** A visit's state beside its time, when it is not simply booked. */
export const VISIT_STATE_WORDS = { booked: '', cancelled: 'cancelled', no_show: 'no-show' } as const;
