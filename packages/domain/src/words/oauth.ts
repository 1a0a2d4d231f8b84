/**
 * What the authorization server says when it refuses (the `error_description` of RFC 6749
 * errors). The OAuth error classes live in packages/oauth, which the domain does not import,
 * so these are strings: `new InvalidGrantError(oauthWords.codeNotValid())`. One object keeps
 * them apart from the sign-in code's words of the same names.
 */
export const oauthWords = {
  // The authorize endpoint's request
  onlyResponseTypeCode: () => 'Only response_type=code is supported.',
  pkceRequired: () => 'PKCE is required: send code_challenge (S256).',
  onlyS256: () => 'code_challenge_method must be S256.',
  scopesAre: (scopes: readonly string[]) => `Scopes are ${scopes.join(' and ')}.`,
  resourcesAre: (resources: readonly string[]) => `Tokens are issued only for ${resources.join(' or ')}.`,
  declined: () => 'The person declined.',

  // The token endpoint
  tokenNeedsPost: () => 'Send a POST with a form-encoded body.',
  unknownClient: () => 'Unknown client_id.',
  codeRequired: () => 'code is required.',
  refreshTokenRequired: () => 'refresh_token is required.',
  unsupportedGrantType: () => 'grant_type must be authorization_code or refresh_token.',

  // A code traded for tokens
  codeNotValid: () => 'The authorization code is not valid.',
  codeReused: () => 'The authorization code was already used; the tokens issued from it are revoked.',
  codeExpired: () => 'The authorization code has expired.',
  codeOfAnotherClient: () => 'The authorization code was issued to another client.',
  redirectUriDiffers: () => 'redirect_uri does not match the one the code was issued for.',
  verifierMalformed: () => 'code_verifier is missing or malformed (43 to 128 characters).',
  verifierWrong: () => 'code_verifier does not match the code challenge.',
  resourceDiffers: () => 'resource differs from the one authorized.',

  // A refresh token rotated
  refreshNotValid: () => 'The refresh token is not valid or was revoked.',
  refreshReused: () => 'The refresh token was already used; every token of this sign-in is now revoked. Sign in again.',
  refreshExpired: () => 'The refresh token has expired; sign in again.',
  refreshOfAnotherClient: () => 'The refresh token was issued to another client.',
  scopeExceedsGrant: () => 'The scope asked for exceeds the scope granted.',

  // Dynamic registration (RFC 7591)
  registerNeedsPost: () => 'Register with a POST of the client metadata as JSON.',
  redirectUriCount: () => 'redirect_uris must list 1 to 10 redirect URIs.',
  clientNameHiddenCharacters: () =>
    'client_name may not hold control or format characters (such as right-to-left overrides or zero-width spaces): they hide or reorder what a person reads.',
  imitatesOwnClient: (ownName: string) => `client_name may not be or imitate "${ownName}", the name of this service's own client.`,
  onlyCodeAndRefreshGrants: () => 'Only the authorization_code and refresh_token grants are supported.',

  // A redirect URI, registered or in a metadata document
  redirectUriNotString: () => 'Each redirect URI must be a string.',
  redirectUriHiddenCharacters: () => 'A redirect URI may not hold spaces, control or format characters.',
  redirectUriNotAbsolute: (uri: string) => `"${uri}" is not an absolute URI.`,
  redirectUriFragment: (uri: string) => `"${uri}" must not have a fragment.`,
  redirectUriNotHttps: (uri: string) => `"${uri}" must use https (plain http is allowed only for localhost or 127.0.0.1).`,

  // A client ID metadata document, fetched from the client_id URL
  clientIdNotUrl: () => 'The client_id is not a URL.',
  clientIdUrlShape: () => 'A client_id URL must be https, with a path, and no credentials or fragment.',
  hostDoesNotResolve: (host: string) => `The client's host ${host} does not resolve.`,
  hostNotPublic: (host: string) => `The client's host ${host} resolves to an address that is not public.`,
  documentStatus: (status: number | undefined) => `The client's metadata document answered ${status}.`,
  documentTooLarge: (maxBytes: number) => `The client's metadata document is larger than ${maxBytes} bytes.`,
  documentTimedOut: (timeoutMs: number) => `The client's metadata document did not arrive within ${timeoutMs} ms.`,
  /** `code` is the socket error's code (ECONNREFUSED…), when it has one. */
  documentNotFetched: (code: string | undefined) => `The client's metadata document could not be fetched (${code ?? 'error'}).`,
  documentNotJson: () => "The client's metadata document is not JSON.",
  documentNotObject: () => "The client's metadata document is not a JSON object.",
  documentClientIdDiffers: () => "The document's client_id is not the URL it was fetched from.",
  onlyPublicClients: () => 'Only public clients (token_endpoint_auth_method "none") are supported.',
  documentRedirectUriCount: () => 'The document must list 1 to 10 redirect_uris.',
  /** `why` is one of the redirect-URI sentences above. */
  documentRedirectUris: (why: string) => `The document's redirect_uris: ${why}`,
  documentUnreadable: () => "The client's metadata document could not be read.",
  documentFetchesBusy: (max: number) => `This server is already fetching ${max} client metadata documents; try again in a few seconds.`,
};
