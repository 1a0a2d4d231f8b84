/**
 * The one error hierarchy of the system. Rules throw these; the HTTP layer maps each
 * to its status and an `{error}` body. Messages are sentences a person can act on.
 */
export abstract class AppError extends Error {
  abstract readonly status: number;
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** 400: the input breaks a bound, or the action is refused by a rule. */
export class InvalidInputError extends AppError {
  readonly status = 400;
}

/** 401: missing or bad credentials. */
export class UnauthorizedError extends AppError {
  readonly status = 401;
}

/** 403: authenticated, but not allowed to do this. */
export class ForbiddenError extends AppError {
  readonly status = 403;
}

/** 404: an unknown id or token. */
export class NotFoundError extends AppError {
  readonly status = 404;
}

/** 429: too many attempts or requests; try again later. */
export class TooManyRequestsError extends AppError {
  readonly status = 429;
}

/** 409 is never used: races are reported as 400 refusals per the contract. */
