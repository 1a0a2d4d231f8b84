import { createServer, type RequestListener, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Express } from 'express';
import type { Logger } from 'pino';

/** A port taken before the app is ready to serve: until `serve`, every request gets a 503. */
export interface BoundPort {
  server: Server;
  serve(app: Express | RequestListener): void;
}

/**
 * Binds the port first, so a port already in use is reported before anything else is
 * done; `name` (the variable that sets the port) is named in that error.
 */
export async function bindPort(port: number, host = '0.0.0.0', name = 'the port'): Promise<BoundPort> {
  let handle: RequestListener = (_req, res) => {
    res.writeHead(503, { 'Content-Type': 'application/json; charset=utf-8', 'Retry-After': '2' });
    res.end(JSON.stringify({ error: 'The service is starting; try again in a few seconds.' }));
  };
  const server = createServer((req, res) => handle(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(err.code === 'EADDRINUSE' ? new Error(`Port ${port} (${name}) is already in use: stop what is using it, or set ${name} to a free port.`) : err),
    );
    server.listen(port, host, () => resolve());
  });
  server.keepAliveTimeout = 65_000;
  server.on('clientError', answerClientError);
  return {
    server,
    serve: (app) => {
      handle = app;
    },
  };
}

export async function listen(app: Express | RequestListener, port: number, host = '0.0.0.0', name?: string): Promise<Server> {
  const bound = await bindPort(port, host, name);
  bound.serve(app);
  return bound.server;
}

const CLIENT_ERRORS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'The request headers are too large; keep them under 16 KB in all.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'The request took too long to arrive; send it again.'],
};

/**
 * A request Node refuses before Express sees it (headers too large, malformed HTTP) still
 * gets an `{error}` sentence: by default Node answers those with an empty body.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason, error] = CLIENT_ERRORS[err.code ?? ''] ?? [400, 'Bad Request', 'The request is not valid HTTP/1.1 (a malformed line or header).'];
  const body = JSON.stringify({ error });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * Stops taking connections and resolves once in-flight requests have finished. A keep-alive
 * connection whose request finishes after this is closed as soon as it is idle, rather than
 * holding the close until its keep-alive timeout.
 */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const idle = setInterval(() => server.closeIdleConnections(), 100);
    server.close(() => {
      clearInterval(idle);
      resolve();
    });
    server.closeIdleConnections();
  });
}

/**
 * On SIGTERM/SIGINT: run `cleanup` once (close servers, then the database), then exit; past
 * `graceMs` (15 s, plus any drain delay the cleanup begins with) the process exits anyway.
 */
export function shutdownOnSignals(logger: Logger, cleanup: () => Promise<void>, graceMs = 15_000): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    setTimeout(() => process.exit(1), graceMs).unref();
    try {
      await cleanup();
      process.exit(0);
    } catch (err) {
      logger.error({ err }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}
