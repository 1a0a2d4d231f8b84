import { ConfigError, type FlatEnv } from './env';
import { readFlag } from './values';

/** How mail (sign-in codes) leaves the outbox. */
export interface MailSettings {
  /** SMTP_URL (or SMTP_URL_FILE), e.g. smtp://user:pass@mail.example:587; unset: nothing is sent. */
  smtpUrl?: string;
  /** MAIL_FROM. */
  from: string;
  /**
   * FRONT_DESK_LOCAL_MAIL, which `pnpm start` sets: without SMTP_URL each mail is printed to
   * the terminal (that is where a local run shows sign-in codes) instead of waiting unsent.
   */
  printLocally: boolean;
}

export const DEFAULT_MAIL_FROM = 'Front Desk <no-reply@localhost>';

function checkedSmtpUrl(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  let protocol = '';
  try {
    protocol = new URL(raw).protocol;
  } catch {
    // not a URL: refused below
  }
  // The value is not repeated: it may hold a password.
  if (protocol !== 'smtp:' && protocol !== 'smtps:')
    throw new ConfigError('SMTP_URL', 'must be an smtp:// or smtps:// URL such as smtp://user:pass@mail.example:587.');
  return raw;
}

export function readMailSettings(env: FlatEnv): MailSettings {
  const from = env.MAIL_FROM ?? DEFAULT_MAIL_FROM;
  if (!/\S@\S/.test(from)) throw new ConfigError('MAIL_FROM', `must be an address such as Front Desk <no-reply@example.com>; got "${from}".`);
  return { smtpUrl: checkedSmtpUrl(env.SMTP_URL), from, printLocally: readFlag(env, 'FRONT_DESK_LOCAL_MAIL') };
}
