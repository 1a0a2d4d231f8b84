import pino, { type Logger } from 'pino';

/**
 * One logger per service. Credentials and the people's details an assistant sends in
 * headers never reach the log, whatever level. `destination` is for tests that read it.
 */
export function createLogger(name: string, level = process.env.LOG_LEVEL ?? 'info', destination?: pino.DestinationStream): Logger {
  const options = {
    name,
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["x-api-key"]',
        'req.headers["x-user-name"]',
        'req.headers["x-user-email"]',
        'req.headers["x-user-phone"]',
        'res.headers["set-cookie"]',
      ],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

export type { Logger };

const SECRET_PARAMS = /([?&](?:manage_token|token|code|code_verifier|refresh_token|key)=)[^&#]*/gi;

/** A URL fit for the log: secret query parameters (manage_token, codes, tokens) blanked. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[redacted]');
}

/** The id pino-http gave the request (a UUID string), as text for answers and logs. */
export function requestIdOf(req: { id?: unknown }): string {
  return typeof req.id === 'string' || typeof req.id === 'number' ? String(req.id) : '';
}
