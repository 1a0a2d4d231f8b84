import { Router } from 'express';
import { SCOPES } from '../grants';
import { openCors, type OAuthServer } from '../shared';

/** RFC 9728 protected-resource metadata (API and MCP), RFC 8414 server metadata, and the JWKS. */
export function metadataEndpoints(s: OAuthServer): Router {
  const router = Router();
  const issuer = s.issuer;
  const protectedResource = (resource: string) => ({
    resource,
    authorization_servers: [issuer],
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: s.resourceName,
  });
  for (const [path, resource] of [
    ['/.well-known/oauth-protected-resource', issuer],
    ['/.well-known/oauth-protected-resource/mcp', `${issuer}/mcp`],
  ] as const) {
    router.all(path, openCors, (_req, res) => {
      res.json(protectedResource(resource));
    });
  }
  router.all('/.well-known/oauth-authorization-server', openCors, (_req, res) => {
    res.json({
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/token`,
      registration_endpoint: `${issuer}/register`,
      revocation_endpoint: `${issuer}/revoke`,
      jwks_uri: `${issuer}/.well-known/jwks.json`,
      scopes_supported: [...SCOPES],
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      revocation_endpoint_auth_methods_supported: ['none'],
      authorization_response_iss_parameter_supported: true,
      // A client may name itself by the https URL of its metadata document instead of registering.
      client_id_metadata_document_supported: true,
    });
  });
  router.all('/.well-known/jwks.json', openCors, async (_req, res) => {
    res.json(await s.keys.jwks());
  });

  return router;
}
