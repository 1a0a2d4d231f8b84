import type { Request } from 'express';

/** The bearer token of `Authorization: Bearer <token>`, or null. */
export function bearerToken(req: Request): string | null {
  const header = req.get('authorization');
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A header's value as the text its sender meant, or undefined when it was not sent. Node
 * reads header bytes as Latin-1, so a name sent in UTF-8 ("Łukasz": C5 81 …) would arrive as
 * "Å\x81ukasz", a C1 control inside it; bytes that read as UTF-8 are read so, any others stay
 * Latin-1. What a header carries into a booking (a name, an assistant's name) is judged, and
 * stored, as this text.
 */
export function headerText(req: Pick<Request, 'get'>, name: string): string | undefined {
  const raw = req.get(name);
  if (raw === undefined || !/[\x80-\xff]/.test(raw)) return raw;
  try {
    return UTF8.decode(Buffer.from(raw, 'latin1'));
  } catch {
    return raw;
  }
}
