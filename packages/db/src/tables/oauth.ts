import type { ColumnType, Generated, Selectable } from 'kysely';

export interface OAuthClientsTable {
  id: string;
  name: string;
  redirect_uris: string[];
  created_at: Generated<Date>;
  /** When the client last got a code; never-used dynamic clients are purged. */
  last_used_at: Date | null;
}

export interface OAuthRequestsTable {
  id: string;
  client_id: string;
  redirect_uri: string;
  state: string | null;
  code_challenge: string;
  scope: string;
  resource: string;
  /** The host (its public URL) whose authorization server made the row; no other host honours it. */
  issuer: string;
  /** Set once the person signed in with an emailed code. */
  email: string | null;
  expires_at: Date;
  created_at: Generated<Date>;
}

export interface OAuthCodesTable {
  code_hash: Buffer;
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  email: string;
  scope: string;
  resource: string;
  /** The host (its public URL) whose authorization server made the row; no other host honours it. */
  issuer: string;
  expires_at: Date;
  consumed_at: Date | null;
  created_at: Generated<Date>;
}

export interface OAuthRefreshTokensTable {
  token_hash: Buffer;
  family_id: string;
  client_id: string;
  email: string;
  scope: string;
  resource: string;
  /** The host (its public URL) whose authorization server made the row; no other host honours it. */
  issuer: string;
  expires_at: Date;
  used_at: Date | null;
  revoked_at: Date | null;
  created_at: Generated<Date>;
}

export interface OAuthSigningKeysTable {
  kid: string;
  /** The private JWK sealed with the key-encryption key (null for keys retired in the clear). */
  private_key_sealed: Buffer | null;
  public_jwk: ColumnType<Record<string, unknown>, string, string>;
  created_at: Generated<Date>;
  retired_at: Date | null;
}

export interface OAuthRevokedSignInsTable {
  family_id: string;
  revoked_at: Date;
}

export type OAuthClient = Selectable<OAuthClientsTable>;
export type OAuthRequest = Selectable<OAuthRequestsTable>;
