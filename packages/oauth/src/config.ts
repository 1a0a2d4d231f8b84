/**
 * The pre-registered public OAuth client both authorization servers know without a
 * registration: its id (PUBLIC_CLIENT_ID) and where codes may go (PUBLIC_CLIENT_REDIRECT_URIS).
 */
export const DEFAULT_PUBLIC_CLIENT_REDIRECT_URIS = [
  'https://claude.ai/api/mcp/auth_callback',
  'https://chatgpt.com/connector_platform_oauth_redirect',
  'http://localhost:6274/oauth/callback',
];

export function readPublicClient(env: NodeJS.ProcessEnv): { publicClientId: string; publicClientRedirectUris: string[] } {
  const id = env.PUBLIC_CLIENT_ID || 'front-desk';
  if (!/^[A-Za-z0-9_.-]{3,100}$/.test(id)) throw new Error('PUBLIC_CLIENT_ID must be 3 to 100 letters, digits, dots, dashes or underscores.');
  const raw = env.PUBLIC_CLIENT_REDIRECT_URIS;
  const uris = !raw
    ? DEFAULT_PUBLIC_CLIENT_REDIRECT_URIS
    : raw.split(',').map((u) => {
        try {
          return new URL(u.trim()).toString();
        } catch {
          throw new Error(`PUBLIC_CLIENT_REDIRECT_URIS must be comma-separated absolute URIs; got "${u.trim()}".`);
        }
      });
  return { publicClientId: id, publicClientRedirectUris: uris };
}
