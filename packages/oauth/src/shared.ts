import type { Request, RequestHandler, Response } from 'express';
import type { Db, SecretHashKeys } from '@frontdesk/db';
import { AppError } from '@frontdesk/domain';
import { clientIp, screenInput, type HostLimits, type Sealer } from '@frontdesk/http';
import type { SigningKeys } from './keys';
import type { OAuthError } from './errors';
import type { PublicClient } from './grants';
import type { ClientMetadataFetchOptions } from './client-metadata';

/** What every endpoint of the authorization server shares. */
export interface OAuthServer {
  db: Db;
  /** The host's public URL: the issuer, and the resource tokens are for. */
  issuer: string;
  keys: SigningKeys;
  clock: () => Date;
  /** The client pre-registered from configuration (for assistants that cannot register). */
  publicClient: PublicClient;
  /** How the protected resource names itself in its metadata. */
  resourceName: string;
  /** The host's shared rate limits: sign-in codes, registrations and authorizations per client IP. */
  limits: HostLimits;
  /** Who signs in here, and what the pages tell them. */
  account: SignInAccount;
  /** How client metadata documents are fetched (tests allow their own machine). */
  clientDocuments?: ClientMetadataFetchOptions;
  /** Seals what a sign-in step hands to the next page (the request and the address), so every step can answer 303. */
  sealer: Sealer;
  /** The keys sign-in codes and pending authorization ids are stored under (KeySealer.hashKeys). */
  hashKeys: SecretHashKeys;
}

/** A host's kind of account: a customer's bookings, or a business. */
export interface SignInAccount {
  /** What an application asks for, after "wants to": "use your Front Desk cleaning bookings". */
  wants: string;
  /** Each scope as the consent page lists it. */
  scopes: Record<'read' | 'write', string>;
  /** Refuses a verified address that has no account here, with the sentence to show; null lets it in. */
  refuse?: (email: string) => Promise<string | null>;
}

/** The resources tokens may be issued for: the host's API and its MCP endpoint. */
export const resourcesOf = (publicUrl: string) => [publicUrl, `${publicUrl}/mcp`];

/**
 * The protected-resource metadata (RFC 9728) of the resource a request reached: `/mcp` has
 * its own (resource `…/mcp`), and the REST API is the origin's (resource: the public URL).
 * A 401 or 403 points at the one whose `resource` is what the client called, as a strict
 * client checks (RFC 9728 §3.3: the document's resource is the identifier its well-known URL
 * was made from).
 */
export const resourceMetadataUrl = (publicUrl: string, path: string) => `${publicUrl}/.well-known/oauth-protected-resource${path === '/mcp' ? '/mcp' : ''}`;

/** Counts a sign-in started, or a client metadata document fetched, against the client address's authorize budget. */
export const takeAuthorize = (s: OAuthServer, req: Request) =>
  s.limits.limiter.take('authorize', s.limits.limits.authorizePerIp, clientIp(req), { what: 'sign-ins started' });

/** Why a request's OAuth parameters cannot be used (text PostgreSQL cannot store: the operations' own check), or null. */
export function unstorableParameter(params: unknown): string | null {
  try {
    screenInput(params ?? {});
    return null;
  } catch (err) {
    if (err instanceof AppError && err.status === 400) return err.message;
    throw err;
  }
}

export const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

/** CORS for endpoints browser-based clients call directly (no cookies are involved). */
export const openCors: RequestHandler = (req, res, next) => {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Allow-Headers', 'Authorization, Content-Type, MCP-Protocol-Version');
  res.setHeader('Access-Control-Expose-Headers', 'WWW-Authenticate');
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
  if (req.method === 'OPTIONS') {
    res.status(204).end();
    return;
  }
  next();
};

/** An OAuth error as the token and registration endpoints answer it (RFC 6749 §5.2). */
export const oauthJson = (res: Response, err: OAuthError) => {
  res.status(err.status).setHeader('Cache-Control', 'no-store').json(err.toJSON());
};
