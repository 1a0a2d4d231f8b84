import { InvalidInputError, TooManyRequestsError } from '../errors';
import { SHOWN_ONCE_MINUTES, SIGN_IN_CODE_MINUTES } from '../policy';

/** Everything a person reads while signing in with an emailed code. */

/** A code step's address opened when what it kept is gone (its minutes passed, the browser closed, or a sign-out since). */
export const CODE_STEP_GONE = `That step is no longer open here: it stays ${SHOWN_ONCE_MINUTES} minutes, in the browser that asked for the code. Give your email again for a new code.`;

/** The refusal when an address was sent its limit of codes (the shared rate limit answers it, with Retry-After). */
export const tooManyCodesMessage = (email: string) => `Too many codes were sent to ${email} in the last hour; wait a while, then ask again.`;

/** How long a code works, as the pages that ask for it say it. */
export const CODE_LIFETIME_TEXT = `It works once, for ${SIGN_IN_CODE_MINUTES} minutes.`;

export function signInMail(code: string, purpose: string): { subject: string; text: string } {
  return {
    subject: `Your Front Desk code: ${code}`,
    text: `Your code to ${purpose} is ${code}.\n\n${CODE_LIFETIME_TEXT} If you did not ask for it, ignore this email.`,
  };
}

const again = 'Ask for a new code.';
export const codeFormat = () => new InvalidInputError('The code is the 6 digits from the email.');
export const noCodeSent = (email: string) => new InvalidInputError(`No code was sent to ${email}. ${again}`);
export const codeUsed = () => new InvalidInputError(`That code was already used. ${again}`);
export const codeExpired = () => new InvalidInputError(`That code has expired. ${again}`);
export const codeTriedTooOften = () => new TooManyRequestsError(`Too many wrong tries for that code. ${again}`);
export const codeWrong = (left: number) =>
  new InvalidInputError(left > 0 ? `That code is not right; ${left} ${left === 1 ? 'try' : 'tries'} left.` : `That code is not right. ${again}`);

/** The answer to a sign-up from an address that already signed a business up: nothing is created twice. */
export const alreadyOwnsBusiness = (email: string, name: string) =>
  new InvalidInputError(`${email} already signed up ${name}; one address runs one business. Sign in with it instead of signing up again.`);

/** What an assistant is told when a code is on its way. */
export const signInCodeSentMessage = (email: string) => `A 6-digit code was sent to ${email}; it works once, for ${SIGN_IN_CODE_MINUTES} minutes.`;

/**
 * What a page says about a key it shows after the form that made it: a reload shows it again,
 * so the page never says "only this once"; it says for whom and how long.
 */
export const KEY_SHOWN_FOR = `Copy it now: this page shows it only in this browser, to you while you stay signed in, for ${SHOWN_ONCE_MINUTES} minutes; after that it is not shown again.`;

/** The same page once the key is gone: expired, signed out, or another browser or person. */
export const KEY_NO_LONGER_SHOWN = `This key is no longer shown here: it was shown for ${SHOWN_ONCE_MINUTES} minutes, in the browser that made it, to whoever made it while they stayed signed in.`;
