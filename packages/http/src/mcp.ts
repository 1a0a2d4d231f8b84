import express, { Router, type ErrorRequestHandler, type Request, type RequestHandler, type Response } from 'express';
import { IDEMPOTENCY_ARGUMENT_TEXT, somethingWentWrong } from '@frontdesk/domain';
import { AppError, ForbiddenError } from '@frontdesk/domain';
import { runOperation } from './call';
import { readIdempotencyKey } from './idempotency';
import type { RestOptions } from './rest';
import { InsufficientScopeError, UNAVAILABLE_MESSAGE, UNAVAILABLE_RETRY_AFTER_SECONDS, answeredLate, readingRefusal, setErrorHeaders } from './errors';
import type { JsonSchema, Operation } from './operation';
import { toJsonSchema } from './output';
import { requestIdOf } from './logger';
import { RateLimitedError } from './rate-limit';
import { isLoopbackHost } from './config';

/**
 * The Model Context Protocol's Streamable HTTP transport in stateless mode: one POST per
 * JSON-RPC message, a plain JSON answer, no session and no event stream. Tools are the
 * operation registry itself, read on every tools/list, so a new operation appears at once.
 */
export const MCP_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26'] as const;
export const LATEST_MCP_PROTOCOL_VERSION = MCP_PROTOCOL_VERSIONS[0];

export const JSONRPC = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
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

const rpcError = (id: Id | null, code: number, message: string) => ({ jsonrpc: '2.0' as const, id, error: { code, message } });

function isLoopback(origin: string): boolean {
  try {
    const { hostname, protocol } = new URL(origin);
    return (protocol === 'http:' || protocol === 'https:') && isLoopbackHost(hostname);
  } catch {
    return false;
  }
}

/** The MCP stand-in for the Idempotency-Key header: an argument every write tool takes (and a read tool ignores). */
export const IDEMPOTENCY_ARGUMENT = 'idempotency_key';
const idempotencyArgument = {
  type: 'string',
  minLength: 1,
  maxLength: 255,
  description: IDEMPOTENCY_ARGUMENT_TEXT,
} as const;

/**
 * An MCP tool for an operation: the same JSON Schema the REST input is checked against, plus
 * the idempotency argument on writes. Only type, properties, required and additionalProperties
 * stand at the top level: some clients refuse a whole tool list over one anyOf there.
 */
export function toolOf(op: Operation<unknown>) {
  const { type, required, additionalProperties } = op.input;
  // OpenAPI 3.0's `nullable` (phone: null clears it) as MCP clients read it: type [T, "null"].
  const properties = toJsonSchema(op.input.properties) as Record<string, JsonSchema>;
  return {
    name: op.name,
    title: op.title,
    description: op.readOnly ? op.description : `${op.description} Pass idempotency_key to make a retry safe.`,
    inputSchema: {
      type,
      properties: op.readOnly ? properties : { ...properties, [IDEMPOTENCY_ARGUMENT]: idempotencyArgument },
      ...(required?.length ? { required } : {}),
      ...(additionalProperties === undefined ? {} : { additionalProperties }),
    },
    outputSchema: toJsonSchema(op.output),
    annotations: {
      title: op.title,
      readOnlyHint: op.readOnly,
      ...(op.readOnly ? {} : { destructiveHint: op.destructive ?? false }),
      idempotentHint: op.idempotent ?? false,
      openWorldHint: false,
    },
  };
}

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
    res.setHeader('Access-Control-Allow-Headers', 'Authorization, Content-Type, MCP-Protocol-Version, X-Client-Name, X-User-Name, X-User-Email, X-User-Phone');
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
    if (version !== undefined && !(MCP_PROTOCOL_VERSIONS as readonly string[]).includes(version)) {
      res
        .status(400)
        .json(rpcError(null, JSONRPC.INVALID_REQUEST, `Unsupported MCP-Protocol-Version ${version}; this server speaks ${MCP_PROTOCOL_VERSIONS.join(', ')}.`));
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
    // The request's deadline answered it already: nothing more is said, nor logged as a failure.
    if (answeredLate(req)) throw err;
    if (err instanceof AppError) return toolError(err.message);
    opts.logger.error({ err, requestId: req.id }, 'tool failed');
    return toolError(somethingWentWrong(requestIdOf(req)));
  }
}

function dispatch<P>(opts: McpOptions<P>, req: Request, msg: JsonRpcRequest): unknown {
  const params = msg.params ?? {};
  switch (msg.method) {
    case 'initialize': {
      const asked = params.protocolVersion;
      const protocolVersion = typeof asked === 'string' && (MCP_PROTOCOL_VERSIONS as readonly string[]).includes(asked) ? asked : LATEST_MCP_PROTOCOL_VERSION;
      return { protocolVersion, capabilities: { tools: { listChanged: false } }, serverInfo: opts.serverInfo, instructions: opts.instructions };
    }
    case 'ping':
      return {};
    case 'tools/list':
      return { tools: opts.operations.map((op) => toolOf(op as Operation<unknown>)) };
    case 'tools/call':
      return callTool(opts, req, params);
    default:
      throw new RpcError(JSONRPC.METHOD_NOT_FOUND, `Method not found: ${msg.method}. This server answers initialize, ping, tools/list and tools/call.`);
  }
}

/** The body as one JSON-RPC request to answer; null when the answer was already sent (a parse error, an invalid request, a notification). */
function requestOf(req: Request, res: Response): (JsonRpcRequest & { id: Id }) | null {
  let message: unknown;
  try {
    message = JSON.parse(typeof req.body === 'string' ? req.body : '');
  } catch {
    res.status(400).json(rpcError(null, JSONRPC.PARSE_ERROR, 'Parse error: the body is not valid JSON.'));
    return null;
  }
  const isObject = typeof message === 'object' && message !== null && !Array.isArray(message);
  // `null`, a number or a list is not a message: read it as an empty one, which is refused below.
  const m = (isObject ? message : {}) as Partial<JsonRpcRequest> & { result?: unknown; error?: unknown };
  // A client's response to a server request, or a notification: nothing to answer.
  const answerOrNotification = isObject && m.jsonrpc === '2.0' && m.method === undefined && ('result' in m || 'error' in m);
  const validId = m.id === undefined || typeof m.id === 'string' || (typeof m.id === 'number' && Number.isFinite(m.id));
  const validParams = m.params === undefined || (typeof m.params === 'object' && m.params !== null && !Array.isArray(m.params));
  if (!answerOrNotification && (!isObject || m.jsonrpc !== '2.0' || typeof m.method !== 'string' || !validId || !validParams)) {
    const why = Array.isArray(message)
      ? 'batches are not supported; send one message per request'
      : 'expected {"jsonrpc": "2.0", "method": "…", "id": …, "params": {…}}';
    res.status(400).json(rpcError(isObject && validId && m.id !== undefined ? m.id : null, JSONRPC.INVALID_REQUEST, `Invalid Request: ${why}.`));
    return null;
  }
  if (answerOrNotification || m.id === undefined) {
    res.status(202).end();
    return null;
  }
  return m as JsonRpcRequest & { id: Id };
}

/** An error of the call as the transport answers it: its JSON-RPC error with the HTTP status and headers it calls for. */
function answerError<P>(opts: McpOptions<P>, res: Response, id: Id, err: unknown): boolean {
  if (err instanceof RpcError) {
    res.json(rpcError(id, err.code, err.message));
  } else if (err instanceof ForbiddenError) {
    res.setHeader('WWW-Authenticate', err instanceof InsufficientScopeError ? err.challenge : 'Bearer error="insufficient_scope"');
    res.status(403).json(rpcError(id, JSONRPC.INVALID_REQUEST, err.message));
  } else if (err instanceof RateLimitedError) {
    setErrorHeaders(res, err);
    res.status(err.status).json(rpcError(id, JSONRPC.INVALID_REQUEST, err.message));
  } else if (opts.isUnavailable?.(err)) {
    opts.logger.warn({ err: { message: (err as Error).message }, requestId: res.req.id }, 'database unavailable');
    res.setHeader('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
    res.status(503).json(rpcError(id, JSONRPC.INTERNAL_ERROR, UNAVAILABLE_MESSAGE));
  } else {
    return false;
  }
  return true;
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
    const m = requestOf(req, res);
    if (!m) return;
    try {
      res.json({ jsonrpc: '2.0', id: m.id, result: await dispatch(opts, req, m) });
    } catch (err) {
      if (answeredLate(req)) return;
      if (!answerError(opts, res, m.id, err)) next(err);
    }
  };
  router.post('/mcp', guardOf(opts, cors), express.text({ type: () => true, limit: '64kb' }), unreadable, answer);
  return router;
}

function toolError(message: string) {
  return { content: [{ type: 'text', text: message }], isError: true };
}
