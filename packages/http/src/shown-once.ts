import { randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import { cookieValue } from './html';

/**
 * Post/Redirect/Get for what a form shows once (a new key, a calendar address, a manage link).
 *
 * The form's POST does the action, seals what it has to show into a short-lived cookie bound
 * to a fresh reference, and redirects to a page whose address carries that reference. The GET
 * opens the cookie and shows it: a reload shows the same thing again and never repeats the
 * action, another browser (or the address pasted elsewhere) sees nothing, and nothing secret
 * is stored at rest, in the database or in a log. A new result in the same slot replaces the
 * old one; after `minutes` the browser drops it and the page says it is gone.
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
  /** How long a reload keeps showing it; 15 minutes unless said. */
  minutes?: number;
}

const DEFAULT_MINUTES = 15;
const kidOf = (slot: ShownOnceSlot, ref: string) => `shown-once:${slot.name}:${ref}`;

export class ShownOnce {
  constructor(
    private readonly sealer: Sealer,
    private readonly slot: ShownOnceSlot,
  ) {}

  /** Seals `value` for the result page and answers the reference its address carries. */
  keep(res: Response, value: unknown, now: Date): string {
    const ref = randomBytes(12).toString('base64url');
    const minutes = this.slot.minutes ?? DEFAULT_MINUTES;
    const body = Buffer.from(JSON.stringify({ until: now.getTime() + minutes * 60_000, value }));
    const sealed = this.sealer.seal(body, kidOf(this.slot, ref)).toString('base64url');
    res.append('Set-Cookie', this.cookie(sealed, minutes * 60));
    return ref;
  }

  /** What the POST kept for this reference, or null when it is gone (expired, replaced, another browser). */
  value<T>(req: Request, ref: string, now: Date): T | null {
    const cookie = cookieValue(req, this.slot.name);
    if (!cookie || !/^[A-Za-z0-9_-]{1,40}$/.test(ref)) return null;
    try {
      const kept = JSON.parse(this.sealer.open(Buffer.from(cookie, 'base64url'), kidOf(this.slot, ref)).toString('utf8')) as { until: number; value: T };
      return kept.until > now.getTime() ? kept.value : null;
    } catch {
      return null;
    }
  }

  /** Ends the slot early, when the person says they have what it showed. */
  forget(res: Response): void {
    res.append('Set-Cookie', this.cookie('', 0));
  }

  private cookie(value: string, maxAge: number): string {
    return `${this.slot.name}=${value}; Path=${this.slot.path}; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${this.slot.secure ? '; Secure' : ''}`;
  }
}
