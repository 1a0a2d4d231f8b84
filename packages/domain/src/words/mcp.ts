/**
 * What the MCP endpoint says when it refuses a message of the 2026-07-28 revision (or a batch)
 * before any tool runs: a client's developer reads these, so each names the header or field.
 */
export const mcpUnsupportedVersion = (requested: string, supported: readonly string[], handshake: readonly string[]) =>
  `Unsupported protocol version ${requested}: name ${supported.join(' or ')} in _meta, or use the initialize handshake for ${handshake.join(', ')}.`;
export const mcpEnvelopeInvalid = (key: string, problem: string) => `Invalid _meta for protocol revision 2026-07-28: ${key} ${problem}.`;
export const mcpEnvelopeMissing = (header: string, missing: readonly string[]) =>
  `Invalid params: the MCP-Protocol-Version header names ${header}, but params._meta lacks ${missing.join(', ')}.`;
export const mcpHeaderMissing = (header: string, body: string) => `Header mismatch: the required ${header} header is absent (the body names ${body}).`;
export const mcpHeaderDiffers = (header: string, given: string, body: string) =>
  `Header mismatch: ${header} header value '${given}' does not match body value '${body}'.`;
export const mcpHeaderBadEncoding = (header: string) => `Header mismatch: the ${header} header carries an invalid =?base64?…?= value.`;
export const mcpInitializeWithModernHeader = (header: string) =>
  `Header mismatch: initialize is the handshake of the 2025 revisions, but MCP-Protocol-Version names ${header}; revision ${header} has no handshake.`;
export const mcpModernMethodNotFound = (method: string, methods: readonly string[]) =>
  `Method not found: ${method}. Under protocol revision 2026-07-28 this server answers ${methods.join(', ')}.`;
export const mcpBatchRefused = (version: string) =>
  `Invalid Request: batches are accepted under protocol revision 2025-03-26 only, not ${version}; send one message per request.`;
export const MCP_EMPTY_BATCH = 'Invalid Request: the batch is empty.';
