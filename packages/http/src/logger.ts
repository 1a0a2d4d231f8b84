import pino, { type Logger } from 'pino';

/** One logger per service. Credentials never reach the log, whatever level. */
export function createLogger(name: string, level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
    name,
    level,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-api-key"]', 'res.headers["set-cookie"]'],
      censor: '[redacted]',
    },
  });
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
