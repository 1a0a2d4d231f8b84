import express, { Router, type ErrorRequestHandler, type Request, type RequestHandler, type Response } from 'express';
import {
  MCP_EMPTY_BATCH,
  mcpBatchRefused,
  mcpEnvelopeInvalid,
  mcpEnvelopeMissing,
  mcpHeaderBadEncoding,
  mcpHeaderDiffers,
  mcpHeaderMissing,
  mcpInitializeWithModernHeader,
  mcpModernMethodNotFound,
  mcpUnsupportedVersion,
  somethingWentWrong,
} from '@frontdesk/domain';
import { AppError, ForbiddenError } from '@frontdesk/domain';
import { runOperation } from './call';
import { mcpSpan } from './tracing';
import { publishedSchema } from './published-schema';
import { readIdempotencyKey } from './idempotency';
import type { RestOptions } from './rest';
import { InsufficientScopeError, UNAVAILABLE_MESSAGE, UNAVAILABLE_RETRY_AFTER_SECONDS, readingRefusal, setErrorHeaders } from './errors';
import { answerIfLate, pastDeadline } from './deadline';
import type { JsonSchema, Operation } from './operation';
import { toJsonSchema } from './output';
import { requestIdOf } from './logger';
import { RateLimitedError } from './rate-limit';
import { isLoopbackHost } from './config';
import { RESOURCE_NOT_FOUND, appsCapability, listViews, readView, viewLinks, type AppView } from './apps';

/**
 * The Model Context Protocol's Streamable HTTP transport in stateless mode: one POST per
 * JSON-RPC message, a plain JSON answer, no session and no event stream. Tools are the
 * operation registry itself, read on every tools/list, so a new operation appears at once.
 *
 * Two eras on one endpoint (2026-07-28 basic/versioning, "dual-era server"): the 2025
 * revisions open with the `initialize` handshake; from 2026-07-28 on there is none, and every
 * request names its revision and the client's capabilities in `params._meta`. A request is
 * served as the revision its `_meta` names; one without such a claim is served as before.
 */
/** The revisions negotiated with `initialize`, newest first. */
export const MCP_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26'] as const;
/** The newest handshake revision: what `initialize` answers when the one asked for is not spoken. */
export const LATEST_MCP_PROTOCOL_VERSION = MCP_PROTOCOL_VERSIONS[0];
/** The revisions a request names in its own `_meta`, with no handshake. */
export const MODERN_MCP_PROTOCOL_VERSIONS = ['2026-07-28'] as const;
/** Every revision this endpoint speaks. */
export const ALL_MCP_PROTOCOL_VERSIONS = [...MODERN_MCP_PROTOCOL_VERSIONS, ...MCP_PROTOCOL_VERSIONS] as const;
/** Revisions are dates: this one and every later one carry their version per request. */
const isModernVersion = (version: string) => version >= '2026-07-28';

/** The `_meta` keys of the 2026-07-28 revision (basic/index, "Per-request protocol fields"). */
export const MCP_META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
} as const;

/**
 * How long a client may keep tools/list and server/discover (2026-07-28 CacheableResult): they
 * change only when the service is deployed, and are the same for every caller of a host, so
 * any cache may share them.
 */
const CACHE_HINT = { ttlMs: 300_000, cacheScope: 'public' } as const;

export const JSONRPC = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  /** 2026-07-28: the MCP headers disagree with the body, or a required one is missing. */
  HEADER_MISMATCH: -32020,
  /** 2026-07-28: the version a request names is not spoken here; data lists those that are. */
  UNSUPPORTED_PROTOCOL_VERSION: -32022,
} as const;

/** What an MCP endpoint needs beyond what the REST routes need: who it is and who may call it. */
export interface McpOptions<P> extends RestOptions<P> {
  serverInfo: { name: string; title: string; version: string };
  /** The contract's rules an assistant must follow, sent with initialize. */
  instructions: string;
  /** Browser origins allowed to call; the host's own and loopback origins always are. */
  allowedOrigins: string[];
  publicUrl: string;
  /** True for an error that means the database is away or busy: HTTP 503, retry soon. */
  isUnavailable?: (err: unknown) => boolean;
  /** MCP Apps views (apps.ts): served as `ui://` resources and linked from their tools. */
  views?: readonly AppView[];
}

type Id = string | number;
interface JsonRpcRequest {
  jsonrpc: '2.0';
  id?: Id;
  method: string;
  params?: Record<string, unknown>;
}

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** A message refused before it is dispatched, with the HTTP status the revision gives it. */
class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

const rpcError = (id: Id | null, code: number, message: string, data?: unknown) => ({
  jsonrpc: '2.0' as const,
  id,
  error: { code, message, ...(data === undefined ? {} : { data }) },
});

function isLoopback(origin: string): boolean {
  try {
    const { hostname, protocol } = new URL(origin);
    return (protocol === 'http:' || protocol === 'https:') && isLoopbackHost(hostname);
  } catch {
    return false;
  }
}

/**
 * The MCP stand-in for the Idempotency-Key header: an argument every write tool takes (and a
 * read tool ignores). It is published only on writes that are not idempotent: calling an
 * idempotent one again changes nothing more, so it needs no key (and one sent is still honoured). Its name says what it is; the server instructions say once how to use it
 * (IDEMPOTENCY_ARGUMENT_TEXT) rather than every write tool's schema, and readIdempotencyKey
 * judges it.
 */
export const IDEMPOTENCY_ARGUMENT = 'idempotency_key';
const idempotencyArgument = { type: 'string' } as const;

/**
 * An MCP tool for an operation: its input schema as every client loads it (publishedSchema:
 * the server still judges calls by the whole one), plus the idempotency argument on writes
 * that are not idempotent.
 * Only type, properties and required stand at the top level: some clients refuse a whole tool
 * list over one anyOf there, and Gemini over additionalProperties anywhere.
 */
export function toolOf(op: Operation<unknown>, view?: string) {
  const { required } = op.input;
  const keyed = !op.readOnly && !op.idempotent;
  const listed = op.toolFields ? Object.fromEntries(op.toolFields.map((f) => [f, op.input.properties[f]!])) : op.input.properties;
  const all = keyed ? { ...listed, [IDEMPOTENCY_ARGUMENT]: idempotencyArgument } : listed;
  const properties = publishedSchema({ properties: all }).properties as Record<string, JsonSchema>;
  return {
    name: op.name,
    title: op.title,
    description: op.description,
    inputSchema: {
      type: 'object',
      properties,
      ...(required?.length ? { required } : {}),
    },
    outputSchema: toJsonSchema(op.output),
    // All five on every tool, even where a hint only restates the spec's default (schema.ts,
    // ToolAnnotations): directories and app reviews ask for each, and a read says it is not destructive.
    annotations: {
      title: op.title,
      readOnlyHint: op.readOnly,
      destructiveHint: op.readOnly ? false : (op.destructive ?? true),
      idempotentHint: op.readOnly ? true : (op.idempotent ?? false),
      openWorldHint: op.openWorld ?? false,
    },
    // The MCP Apps view this tool's answer is shown in, for hosts that speak the extension;
    // _meta is never handed to the model (model-size.ts), and the answer itself is unchanged.
    ...(view ? { _meta: { ui: { resourceUri: view } } } : {}),
  };
}

/** Every tool of an endpoint, each linked to its view when one shows its answer. */
function toolsOf<P>(opts: McpOptions<P>) {
  const links = viewLinks(opts.views ?? []);
  return opts.operations.map((op) => toolOf(op as Operation<unknown>, links.get(op.name)));
}

/** The server's capabilities: tools, and with views the resources that hold them and the MCP Apps extension. */
function capabilitiesOf<P>(opts: McpOptions<P>, tools: object) {
  return opts.views?.length ? { tools, resources: {}, extensions: appsCapability() } : { tools };
}

/** resources/list and resources/read: the views, for a host that shows them. */
function answerResources<P>(opts: McpOptions<P>, method: string, params: Record<string, unknown>) {
  const views = opts.views ?? [];
  if (method === 'resources/list') return listViews(views);
  if (typeof params.uri !== 'string') throw new RpcError(JSONRPC.INVALID_PARAMS, 'resources/read needs params.uri, a uri from resources/list.');
  const read = readView(views, params.uri);
  if (!read) throw new RpcError(RESOURCE_NOT_FOUND, `Resource not found: ${params.uri}. resources/list names the views there are.`);
  return read;
}

const RESOURCE_METHODS = ['resources/list', 'resources/read'];

const notAllowed: RequestHandler = (_req, res) => {
  res.setHeader('Allow', 'POST');
  res.status(405).json(rpcError(null, JSONRPC.INVALID_REQUEST, 'This MCP endpoint takes POST only: it is stateless and opens no event stream.'));
};

/** CORS for allowed browser origins (the host's own, configured ones, loopback): the Authorization and protocol headers may be sent. */
function corsFor(opts: Pick<McpOptions<unknown>, 'publicUrl' | 'allowedOrigins'>) {
  const allowed = new Set([new URL(opts.publicUrl).origin, ...opts.allowedOrigins]);
  return (req: Request, res: Response): boolean => {
    const origin = req.get('origin');
    if (origin === undefined) return true;
    if (!allowed.has(origin) && !isLoopback(origin)) return false;
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Vary', 'Origin');
    res.setHeader(
      'Access-Control-Allow-Headers',
      'Authorization, Content-Type, MCP-Protocol-Version, Mcp-Method, Mcp-Name, X-Client-Name, X-User-Name, X-User-Email, X-User-Phone',
    );
    res.setHeader('Access-Control-Allow-Methods', 'POST, OPTIONS');
    res.setHeader('Access-Control-Expose-Headers', 'WWW-Authenticate');
    return true;
  };
}

/** Before a message is read: an allowed origin (DNS-rebinding protection), a spoken protocol version, a caller. */
function guardOf<P>(opts: McpOptions<P>, cors: ReturnType<typeof corsFor>): RequestHandler {
  return async (req, res, next) => {
    const origin = req.get('origin');
    if (!cors(req, res)) {
      res.status(403).json(rpcError(null, JSONRPC.INVALID_REQUEST, `Origin ${origin} is not allowed to call this endpoint.`));
      return;
    }
    const version = req.get('mcp-protocol-version');
    // A later revision than ours is refused once the body is read, by what its _meta names.
    if (version !== undefined && !isModernVersion(version) && !(MCP_PROTOCOL_VERSIONS as readonly string[]).includes(version)) {
      res
        .status(400)
        .json(
          rpcError(null, JSONRPC.INVALID_REQUEST, `Unsupported MCP-Protocol-Version ${version}; this server speaks ${ALL_MCP_PROTOCOL_VERSIONS.join(', ')}.`),
        );
      return;
    }
    try {
      res.locals.principal = await opts.authenticate(req);
      next();
    } catch (err) {
      if (!(err instanceof AppError)) return next(err);
      setErrorHeaders(res, err);
      res.status(err.status).json(rpcError(null, JSONRPC.INVALID_REQUEST, err.message));
    }
  };
}

/** The tool a tools/call names, with its arguments, or the JSON-RPC error saying what is missing. */
function toolCalled<P>(opts: McpOptions<P>, params: Record<string, unknown>): { op: Operation<P>; given: Record<string, unknown> } {
  const name = params.name;
  if (typeof name !== 'string' || name === '') throw new RpcError(JSONRPC.INVALID_PARAMS, 'tools/call needs params.name, the name of a tool from tools/list.');
  const op = opts.operations.find((o) => o.name === name);
  if (!op) throw new RpcError(JSONRPC.INVALID_PARAMS, `Unknown tool: ${name}. tools/list names the tools there are.`);
  const given = params.arguments ?? {};
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    throw new RpcError(JSONRPC.INVALID_PARAMS, "params.arguments must be an object of the tool's input fields.");
  }
  return { op, given: given as Record<string, unknown> };
}

async function callTool<P>(opts: McpOptions<P>, req: Request, params: Record<string, unknown>) {
  const { op, given } = toolCalled(opts, params);
  const principal = req.res!.locals.principal as P;
  opts.authorize?.(principal, op);
  const { [IDEMPOTENCY_ARGUMENT]: rawKey, ...args } = given;
  try {
    // Reads are safe to repeat: a key on one is accepted and ignored, unchecked, as the REST header is.
    const key = op.readOnly ? undefined : readIdempotencyKey(rawKey, IDEMPOTENCY_ARGUMENT);
    const { result } = await runOperation({ op, input: args, req, principal, idempotencyKey: key }, opts);
    return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
  } catch (err) {
    // A refusal of the call itself is a tool result; being forbidden, limited or unable to
    // reach the database is the transport's answer, with its HTTP status and headers.
    if (err instanceof ForbiddenError || err instanceof RateLimitedError || opts.isUnavailable?.(err)) throw err;
    // The request's deadline has come: the transport answers it as the deadline (or already has), not as a failed tool.
    if (pastDeadline(req)) throw err;
    if (err instanceof AppError) return toolError(err.message);
    opts.logger.error({ err, requestId: req.id }, 'tool failed');
    return toolError(somethingWentWrong(requestIdOf(req)));
  }
}

/** A message of a 2025 revision, after the handshake (or without one: this endpoint keeps no session). */
function dispatch<P>(opts: McpOptions<P>, req: Request, msg: JsonRpcRequest): unknown {
  const params = msg.params ?? {};
  switch (msg.method) {
    case 'initialize': {
      const asked = params.protocolVersion;
      const protocolVersion = typeof asked === 'string' && (MCP_PROTOCOL_VERSIONS as readonly string[]).includes(asked) ? asked : LATEST_MCP_PROTOCOL_VERSION;
      return { protocolVersion, capabilities: capabilitiesOf(opts, { listChanged: false }), serverInfo: opts.serverInfo, instructions: opts.instructions };
    }
    case 'ping':
      return {};
    case 'tools/list':
      return { tools: toolsOf(opts) };
    case 'tools/call':
      return callTool(opts, req, params);
    default:
      if (opts.views?.length && RESOURCE_METHODS.includes(msg.method)) return answerResources(opts, msg.method, params);
      throw new RpcError(JSONRPC.METHOD_NOT_FOUND, `Method not found: ${msg.method}. This server answers initialize, ping, tools/list and tools/call.`);
  }
}

/** What a 2026-07-28 request may ask (ping, initialize and logging are gone from it: changelog §5). */
const MODERN_METHODS = ['server/discover', 'tools/list', 'tools/call'] as const;

/**
 * A request of the 2026-07-28 revision. Every result says `resultType` (basic/index,
 * "ResultType") and who answered (`io.modelcontextprotocol/serverInfo` in its `_meta`).
 */
async function dispatchModern<P>(opts: McpOptions<P>, req: Request, msg: JsonRpcRequest): Promise<unknown> {
  const params = msg.params ?? {};
  const complete = (result: object) => ({ ...result, resultType: 'complete', _meta: { [MCP_META.serverInfo]: opts.serverInfo } });
  switch (msg.method) {
    case 'server/discover':
      return complete({
        supportedVersions: [...ALL_MCP_PROTOCOL_VERSIONS],
        capabilities: capabilitiesOf(opts, {}),
        instructions: opts.instructions,
        ...CACHE_HINT,
      });
    case 'tools/list':
      return complete({ tools: toolsOf(opts), ...CACHE_HINT });
    case 'tools/call':
      return complete(await callTool(opts, req, params));
    default:
      // The views change only when the service is deployed, and are the same for every caller.
      if (opts.views?.length && RESOURCE_METHODS.includes(msg.method)) return complete({ ...answerResources(opts, msg.method, params), ...CACHE_HINT });
      // transports/streamable-http §Protocol Version Header: an unknown method is 404 with -32601.
      throw new Refusal(
        404,
        JSONRPC.METHOD_NOT_FOUND,
        mcpModernMethodNotFound(msg.method, opts.views?.length ? [...MODERN_METHODS, ...RESOURCE_METHODS] : MODERN_METHODS),
      );
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The `_meta` of a message's params when it claims a revision (names `io.modelcontextprotocol/protocolVersion`). */
function claimOf(params: unknown): Record<string, unknown> | undefined {
  const meta = isPlainObject(params) ? params._meta : undefined;
  return isPlainObject(meta) && MCP_META.protocolVersion in meta ? meta : undefined;
}

/** The first fault of a 2026-07-28 `_meta`, as [key, problem]; undefined when it is well formed. */
function envelopeFault(meta: Record<string, unknown>): [string, string] | undefined {
  if (typeof meta[MCP_META.protocolVersion] !== 'string') return [MCP_META.protocolVersion, 'must be a protocol version string'];
  if (!(MCP_META.clientCapabilities in meta)) return [MCP_META.clientCapabilities, 'is missing'];
  if (!isPlainObject(meta[MCP_META.clientCapabilities])) return [MCP_META.clientCapabilities, 'must be an object'];
  const info = meta[MCP_META.clientInfo];
  if (info !== undefined && !(isPlainObject(info) && typeof info.name === 'string' && typeof info.version === 'string')) {
    return [MCP_META.clientInfo, 'must be an object with a name and a version'];
  }
  return undefined;
}

/**
 * A header value as the revision encodes it: plain visible ASCII, or `=?base64?…?=` around
 * the Base64 of its UTF-8 (transports/streamable-http §Value Encoding). Undefined when the
 * Base64 is not valid.
 */
function decodedHeader(value: string): string | undefined {
  const sentinel = /^=\?base64\?(.*)\?=$/.exec(value);
  if (!sentinel) return value;
  const b64 = sentinel[1]!;
  if (b64.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(b64)) return undefined;
  return Buffer.from(b64, 'base64').toString('utf8');
}

/**
 * UnsupportedProtocolVersionError (basic/versioning §Protocol Version Negotiation): it lists
 * every revision this endpoint serves, as server/discover does and as the versioning page's
 * example of a dual-era server lists "2026-07-28" beside "2025-11-25"; a client may retry with
 * any of them (a 2025 one through `initialize`, or named in `_meta`: see revisionOf).
 */
const unsupported = (requested: string) =>
  new Refusal(400, JSONRPC.UNSUPPORTED_PROTOCOL_VERSION, mcpUnsupportedVersion(requested, MODERN_MCP_PROTOCOL_VERSIONS, MCP_PROTOCOL_VERSIONS), {
    supported: [...ALL_MCP_PROTOCOL_VERSIONS],
    requested,
  });

/**
 * The revision a message is served as: a 2026-07-28 version when its `_meta` claims one
 * (checked against the MCP headers), or null for the 2025 revisions. Refuses what the revision
 * says to refuse, in the order the official server SDK checks it:
 * - `initialize` with a 2026 `MCP-Protocol-Version`: that revision has no handshake (-32020);
 * - a later header than ours on a message without `_meta` fields: -32022, 400; a 2026 header on
 *   a request without them, or a malformed `_meta`: -32602, 400 (basic/index, "Per-request
 *   protocol fields");
 * - `MCP-Protocol-Version` or `Mcp-Method` that differ from the body: -32020, 400
 *   (transports/streamable-http §Server Validation);
 * - a 2025 version named in `_meta`: served as that revision (null), as it is listed as supported;
 * - a version not spoken here: -32022, 400, with the supported ones (basic/versioning);
 * - on a request (a notification is exempt), a missing `MCP-Protocol-Version` or `Mcp-Method`,
 *   or for tools/call a missing or different `Mcp-Name` (after Base64 decoding): -32020, 400.
 */
function revisionOf(req: Request, m: Partial<JsonRpcRequest>): string | null {
  const header = req.get('mcp-protocol-version')?.trim();
  const headerIsModern = header !== undefined && isModernVersion(header);
  const meta = claimOf(m.params);
  if (m.method === 'initialize' && !(meta && envelopeFault(meta) === undefined && isModernVersion(meta[MCP_META.protocolVersion] as string))) {
    if (headerIsModern) throw new Refusal(400, JSONRPC.HEADER_MISMATCH, mcpInitializeWithModernHeader(header));
    return null;
  }
  if (!meta) {
    if (!headerIsModern) return null;
    if (!(MODERN_MCP_PROTOCOL_VERSIONS as readonly string[]).includes(header)) throw unsupported(header);
    // A notification carries no _meta of its own in this revision: its header says which it is.
    if (m.id === undefined) return header;
    const given = isPlainObject(m.params) && isPlainObject(m.params._meta) ? m.params._meta : undefined;
    const missing = given ? [MCP_META.protocolVersion, MCP_META.clientCapabilities].filter((k) => !(k in given)) : ['_meta'];
    throw new Refusal(400, JSONRPC.INVALID_PARAMS, mcpEnvelopeMissing(header, missing));
  }
  const fault = envelopeFault(meta);
  if (fault) throw new Refusal(400, JSONRPC.INVALID_PARAMS, mcpEnvelopeInvalid(...fault));
  const version = meta[MCP_META.protocolVersion] as string;
  if (header !== undefined && header !== version) throw new Refusal(400, JSONRPC.HEADER_MISMATCH, mcpHeaderDiffers('MCP-Protocol-Version', header, version));
  const methodHeader = req.get('mcp-method')?.trim();
  const method = String(m.method);
  if (methodHeader !== undefined && methodHeader !== method)
    throw new Refusal(400, JSONRPC.HEADER_MISMATCH, mcpHeaderDiffers('Mcp-Method', methodHeader, method));
  // A 2025 revision is listed as supported, so one named in `_meta` is served as that revision
  // (as after its handshake: this endpoint keeps no session), never refused with a list naming it.
  if ((MCP_PROTOCOL_VERSIONS as readonly string[]).includes(version)) return null;
  if (!(MODERN_MCP_PROTOCOL_VERSIONS as readonly string[]).includes(version)) throw unsupported(version);
  if (m.id === undefined) return version;
  if (header === undefined) throw new Refusal(400, JSONRPC.HEADER_MISMATCH, mcpHeaderMissing('MCP-Protocol-Version', version));
  if (methodHeader === undefined) throw new Refusal(400, JSONRPC.HEADER_MISMATCH, mcpHeaderMissing('Mcp-Method', method));
  const name = isPlainObject(m.params) ? m.params.name : undefined;
  if (method === 'tools/call' && typeof name === 'string') {
    const nameHeader = req.get('mcp-name')?.trim();
    if (nameHeader === undefined) throw new Refusal(400, JSONRPC.HEADER_MISMATCH, mcpHeaderMissing('Mcp-Name', name));
    const decoded = decodedHeader(nameHeader);
    if (decoded === undefined) throw new Refusal(400, JSONRPC.HEADER_MISMATCH, mcpHeaderBadEncoding('Mcp-Name'));
    if (decoded !== name) throw new Refusal(400, JSONRPC.HEADER_MISMATCH, mcpHeaderDiffers('Mcp-Name', decoded, name));
  }
  return version;
}

type Read = { kind: 'request'; m: JsonRpcRequest & { id: Id } } | { kind: 'nothing' } | { kind: 'invalid'; id: Id | null; why: string };

/** One parsed JSON-RPC message: a request to answer, nothing to answer (a notification, a client's response), or invalid. */
function readMessage(message: unknown): Read {
  const isObject = isPlainObject(message);
  // `null`, a number or a list is not a message: read it as an empty one, which is refused below.
  const m = (isObject ? message : {}) as Partial<JsonRpcRequest> & { result?: unknown; error?: unknown };
  // A client's response to a server request, or a notification: nothing to answer.
  const answerOrNotification = isObject && m.jsonrpc === '2.0' && m.method === undefined && ('result' in m || 'error' in m);
  const validId = m.id === undefined || typeof m.id === 'string' || (typeof m.id === 'number' && Number.isFinite(m.id));
  const validParams = m.params === undefined || isPlainObject(m.params);
  if (!answerOrNotification && (!isObject || m.jsonrpc !== '2.0' || typeof m.method !== 'string' || !validId || !validParams)) {
    return {
      kind: 'invalid',
      id: isObject && validId && m.id !== undefined ? m.id : null,
      why: 'expected {"jsonrpc": "2.0", "method": "…", "id": …, "params": {…}}',
    };
  }
  if (answerOrNotification || m.id === undefined) return { kind: 'nothing' };
  return { kind: 'request', m: m as JsonRpcRequest & { id: Id } };
}

/** An error of the call as the transport answers it: its HTTP status and JSON-RPC error, with the headers it calls for set; null for any other error. */
function transportErrorOf<P>(opts: McpOptions<P>, res: Response, err: unknown): { status: number; code: number; message: string; data?: unknown } | null {
  if (err instanceof Refusal) return { status: err.status, code: err.code, message: err.message, data: err.data };
  if (err instanceof RpcError) return { status: 200, code: err.code, message: err.message };
  if (err instanceof ForbiddenError) {
    res.setHeader('WWW-Authenticate', err instanceof InsufficientScopeError ? err.challenge : 'Bearer error="insufficient_scope"');
    return { status: 403, code: JSONRPC.INVALID_REQUEST, message: err.message };
  }
  if (err instanceof RateLimitedError) {
    setErrorHeaders(res, err);
    return { status: err.status, code: JSONRPC.INVALID_REQUEST, message: err.message };
  }
  if (opts.isUnavailable?.(err)) {
    opts.logger.warn({ err: { message: (err as Error).message }, requestId: res.req.id }, 'database unavailable');
    res.setHeader('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
    return { status: 503, code: JSONRPC.INTERNAL_ERROR, message: UNAVAILABLE_MESSAGE };
  }
  return null;
}

/** One message, of either era. */
async function answerOne<P>(opts: McpOptions<P>, req: Request, res: Response, message: unknown): Promise<void> {
  const read = readMessage(message);
  if (read.kind === 'invalid') {
    res.status(400).json(rpcError(read.id, JSONRPC.INVALID_REQUEST, `Invalid Request: ${read.why}.`));
    return;
  }
  const m = message as JsonRpcRequest;
  const id = read.kind === 'request' ? read.m.id : null;
  try {
    const revision = revisionOf(req, m);
    if (read.kind === 'nothing') {
      res.status(202).end();
      return;
    }
    const result = await mcpSpan(m.method, m.params, () => (revision ? dispatchModern(opts, req, m) : Promise.resolve(dispatch(opts, req, m))));
    res.json({ jsonrpc: '2.0', id, result });
  } catch (err) {
    if (answerIfLate(req, res)) return;
    const answer = transportErrorOf(opts, res, err);
    if (!answer) throw err;
    res.status(answer.status).json(rpcError(id, answer.code, answer.message, answer.data));
  }
}

/**
 * A JSON-RPC batch, which revision 2025-03-26 requires a server to take (its
 * transports §Sending Messages to the Server) and later revisions removed: taken under that
 * header, or none (2025-06-18 basic/transports: a server SHOULD then assume 2025-03-26).
 * Requests are answered in one array, in order; notifications and responses get nothing;
 * a batch of nothing but those is 202. An error the transport gives a single message a status
 * for (forbidden, limited, database away) is that request's error in the array, headers set.
 */
async function answerBatch<P>(opts: McpOptions<P>, req: Request, res: Response, batch: unknown[]): Promise<void> {
  const header = req.get('mcp-protocol-version')?.trim();
  if (header !== undefined && header !== '2025-03-26') {
    res.status(400).json(rpcError(null, JSONRPC.INVALID_REQUEST, mcpBatchRefused(header)));
    return;
  }
  if (batch.length === 0) {
    res.status(400).json(rpcError(null, JSONRPC.INVALID_REQUEST, MCP_EMPTY_BATCH));
    return;
  }
  if (batch.some((message) => isPlainObject(message) && claimOf(message.params))) {
    res.status(400).json(rpcError(null, JSONRPC.INVALID_REQUEST, mcpBatchRefused(MODERN_MCP_PROTOCOL_VERSIONS[0])));
    return;
  }
  const answers: unknown[] = [];
  for (const message of batch) {
    const read = readMessage(message);
    if (read.kind === 'invalid') answers.push(rpcError(read.id, JSONRPC.INVALID_REQUEST, `Invalid Request: ${read.why}.`));
    if (read.kind !== 'request') continue;
    try {
      answers.push({ jsonrpc: '2.0', id: read.m.id, result: await mcpSpan(read.m.method, read.m.params, () => Promise.resolve(dispatch(opts, req, read.m))) });
    } catch (err) {
      // Past the request's deadline the whole batch is answered as the deadline (below, in the router).
      if (pastDeadline(req)) throw err;
      const answer = transportErrorOf(opts, res, err);
      if (!answer) throw err;
      answers.push(rpcError(read.m.id, answer.code, answer.message, answer.data));
    }
  }
  if (answers.length === 0) res.status(202).end();
  else res.json(answers);
}

export function createMcpRouter<P>(opts: McpOptions<P>): Router {
  const cors = corsFor(opts);
  const router = Router();
  router.options('/mcp', (req, res) => {
    res.status(cors(req, res) ? 204 : 403).end();
  });
  router.get('/mcp', notAllowed);
  router.delete('/mcp', notAllowed);
  // A body that cannot be read (a Content-Encoding that lies, too large) is a JSON-RPC parse error in our words.
  const unreadable: ErrorRequestHandler = (err: unknown, _req, res, next) => {
    const refusal = readingRefusal(err);
    if (!refusal) return next(err);
    res.status(refusal.status).json(rpcError(null, JSONRPC.PARSE_ERROR, refusal.sentence));
  };
  const answer: RequestHandler = async (req, res, next) => {
    let message: unknown;
    try {
      message = JSON.parse(typeof req.body === 'string' ? req.body : '');
    } catch {
      res.status(400).json(rpcError(null, JSONRPC.PARSE_ERROR, 'Parse error: the body is not valid JSON.'));
      return;
    }
    try {
      await (Array.isArray(message) ? answerBatch(opts, req, res, message) : answerOne(opts, req, res, message));
    } catch (err) {
      // The request's deadline has come: it is answered as the deadline, or was already, and nothing more is said.
      if (answerIfLate(req, res)) return;
      next(err);
    }
  };
  router.post('/mcp', guardOf(opts, cors), express.text({ type: () => true, limit: '64kb' }), unreadable, answer);
  return router;
}

function toolError(message: string) {
  return { content: [{ type: 'text', text: message }], isError: true };
}
