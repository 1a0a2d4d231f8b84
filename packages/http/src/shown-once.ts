import { createHash, randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import { SHOWN_ONCE_MINUTES } from '@frontdesk/domain';
import { cookieValue } from './html';

/**
 * Post/Redirect/Get for what a form shows once (a new key, a calendar address, a manage link).
 *
 * The form's POST does the action, seals what it has to show into a short-lived cookie bound
 * to a fresh reference and to its holder (who may see it: a digest of the session that made it,
 * or of what stands for the person where no one signs in), and redirects to a page whose
 * address carries that reference. The GET opens the cookie and shows it only to the same
 * holder: a reload shows the same thing again and never repeats the action; another browser,
 * the address pasted elsewhere, or the next person signed in on the same browser sees nothing;
 * and nothing secret is stored at rest, in the database or in a log. A new result in the same
 * slot replaces the old one; after `minutes` it is gone and the page says so.
 */
export interface Sealer {
  seal(plain: Buffer, kid: string): Buffer;
  open(sealed: Buffer, kid: string): Buffer;
}

export interface ShownOnceSlot {
  /** The cookie's name: one slot per kind of result. */
  name: string;
  /** The path the result page lives under; the cookie is sent nowhere else. */
  path: string;
  secure: boolean;
  /** How long a reload keeps showing it; SHOWN_ONCE_MINUTES unless said. */
  minutes?: number;
}

/**
 * Who a result is for, as a digest of what identifies them (a session token, a manage link's
 * token, this browser's visit): the secret itself never goes into the sealed value.
 */
export type Holder = string & { readonly __holder: unique symbol };

/** The holder named by these parts (a kind, then the secret or holders it is made of). */
export const holderOf = (...parts: string[]): Holder =>
  createHash('sha256')
    .update(['front-desk shown-once holder', ...parts].join('\0'))
    .digest('base64url') as Holder;

const kidOf = (slot: ShownOnceSlot, ref: string) => `shown-once:${slot.name}:${ref}`;

export class ShownOnce {
  constructor(
    private readonly sealer: Sealer,
    private readonly slot: ShownOnceSlot,
  ) {}

  /** Seals `value` for `holder` on the result page and answers the reference its address carries. */
  keep(res: Response, holder: Holder, value: unknown, now: Date): string {
    const ref = randomBytes(12).toString('base64url');
    const minutes = this.slot.minutes ?? SHOWN_ONCE_MINUTES;
    const body = Buffer.from(JSON.stringify({ until: now.getTime() + minutes * 60_000, holder, value }));
    const sealed = this.sealer.seal(body, kidOf(this.slot, ref)).toString('base64url');
    res.append('Set-Cookie', this.cookie(sealed, minutes * 60));
    return ref;
  }

  /**
   * What the POST kept for this reference and this holder, or null when it is gone: expired,
   * replaced, another browser, another holder, or no holder at all (no one signed in).
   */
  value<T>(req: Request, holder: Holder | null, ref: string, now: Date): T | null {
    const cookie = cookieValue(req, this.slot.name);
    if (!holder || !cookie || !/^[A-Za-z0-9_-]{1,40}$/.test(ref)) return null;
    try {
      const kept = JSON.parse(this.sealer.open(Buffer.from(cookie, 'base64url'), kidOf(this.slot, ref)).toString('utf8')) as {
        until: number;
        holder: string;
        value: T;
      };
      return kept.holder === holder && kept.until > now.getTime() ? kept.value : null;
    } catch {
      return null;
    }
  }

  /** Ends the slot early: when the person says they have what it showed, or signs out. */
  forget(res: Response): void {
    res.append('Set-Cookie', this.cookie('', 0));
  }

  private cookie(value: string, maxAge: number): string {
    return `${this.slot.name}=${value}; Path=${this.slot.path}; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${this.slot.secure ? '; Secure' : ''}`;
  }
}

/**
 * A visit: where no one is signed in (a sign-in's first steps, an authorization's hand-over,
 * a customer's booking) a result is held by this browser's visit, a random id in a cookie
 * with no lifetime of its own, so the browser drops it when it closes (the result's own
 * cookie lasts its minutes). Signing out ends the visit too.
 */
const VISIT = 'fd_visit';
const visitCookie = (value: string, secure: boolean, end = false) =>
  `${VISIT}=${value}; Path=/; HttpOnly; SameSite=Strict${end ? '; Max-Age=0' : ''}${secure ? '; Secure' : ''}`;

/** This browser's visit as a holder, begun now when it has none (on the POST that keeps a result). */
export function visitOf(req: Request, res: Response, secure: boolean): Holder {
  let id = cookieValue(req, VISIT);
  if (!id || id.length !== 32) {
    id = randomBytes(24).toString('base64url');
    res.append('Set-Cookie', visitCookie(id, secure));
  }
  return holderOf('visit', id);
}

/** This browser's visit as a holder, or null when it has none (a result kept for a visit is then gone). */
export function visitIn(req: Request): Holder | null {
  const id = cookieValue(req, VISIT);
  return id && id.length === 32 ? holderOf('visit', id) : null;
}

/** Ends this browser's visit: whatever was kept for it can no longer be shown. */
export function endVisit(res: Response, secure: boolean): void {
  res.append('Set-Cookie', visitCookie('', secure, true));
}
