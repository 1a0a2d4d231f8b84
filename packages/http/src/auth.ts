import type { Request } from 'express';

/** The bearer token of `Authorization: Bearer <token>`, or null. */
export function bearerToken(req: Request): string | null {
  const header = req.get('authorization');
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}
