import { ConfigError, type FlatEnv } from './env';
import { readText } from './values';

/** The key-encryption keys as written (base64 or hex); packages/oauth turns them into its KeySealer. */
export interface KeyEncryptionKeys {
  /** KEY_ENCRYPTION_KEY (or _FILE): seals new signing keys and opens them. */
  current: string;
  /** KEY_ENCRYPTION_KEY_PREVIOUS (or _FILE), during a rotation: only opens. */
  previous?: string;
}

/** KEY_ENCRYPTION_KEY is required: a service refuses to start without it. */
export function readKeyEncryptionKeys(env: FlatEnv): KeyEncryptionKeys {
  const current = env.KEY_ENCRYPTION_KEY;
  if (!current) {
    throw new ConfigError(
      'KEY_ENCRYPTION_KEY',
      'must be set: it seals the OAuth signing keys stored in the database. Make one with: openssl rand -base64 32 (keep it out of the database and its backups).',
    );
  }
  return { current, previous: env.KEY_ENCRYPTION_KEY_PREVIOUS };
}

/** The pre-registered public OAuth client both authorization servers know without a registration. */
export interface PublicClientSettings {
  publicClientId: string;
  publicClientRedirectUris: string[];
}

export const DEFAULT_PUBLIC_CLIENT_ID = 'front-desk';

export const DEFAULT_PUBLIC_CLIENT_REDIRECT_URIS = [
  'https://claude.ai/api/mcp/auth_callback',
  'https://chatgpt.com/connector_platform_oauth_redirect',
  'http://localhost:6274/oauth/callback',
];

/** PUBLIC_CLIENT_ID and PUBLIC_CLIENT_REDIRECT_URIS. */
export function readPublicClient(env: FlatEnv): PublicClientSettings {
  const publicClientId = readText(env, 'PUBLIC_CLIENT_ID', {
    fallback: DEFAULT_PUBLIC_CLIENT_ID,
    pattern: /^[A-Za-z0-9_.-]{3,100}$/,
    shape: '3 to 100 letters, digits, dots, dashes or underscores',
  });
  const raw = env.PUBLIC_CLIENT_REDIRECT_URIS;
  const publicClientRedirectUris = !raw
    ? DEFAULT_PUBLIC_CLIENT_REDIRECT_URIS
    : raw.split(',').map((u) => {
        try {
          return new URL(u.trim()).toString();
        } catch {
          throw new ConfigError('PUBLIC_CLIENT_REDIRECT_URIS', `must be comma-separated absolute URIs; got "${u.trim()}".`);
        }
      });
  return { publicClientId, publicClientRedirectUris };
}
