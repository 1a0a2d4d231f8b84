/**
 * An OAuth 2.0 error response (RFC 6749 §5.2 at the token endpoint, §4.1.2.1 on a redirect).
 * Each code has its own file, with the section that defines it.
 */
export abstract class OAuthError extends Error {
  abstract readonly error: string;
  readonly status: number = 400;
  constructor(readonly description: string) {
    super(description);
  }
  toJSON() {
    return { error: this.error, error_description: this.description };
  }
}
