import { InvalidInputError } from '../errors';

/**
 * Refusals of a single field that several areas share (a business's settings, a
 * customer's details): written once, named by the field the caller passes.
 */

export const notAPhone = (field: string, value: string) =>
  new InvalidInputError(`${field} "${value}" is not a phone number (digits, spaces, + ( ) - allowed; at least 7 digits).`);

export const notAnEmail = (field: string, value: string) => new InvalidInputError(`${field} "${value}" is not an email address.`);
