import type { Request } from 'express';
import type { Logger } from 'pino';
import type { CallContext, Operation } from './operation';

export function clientNameOf(req: Request): string | null {
  const name = req.get('x-client-name')?.trim();
  return name ? name : null;
}

/** The one way an operation runs, whichever transport (REST or MCP) brought the call. */
export function runOperation<P>(
  op: Operation<P>,
  input: unknown,
  req: Request,
  principal: P,
  clock: () => Date,
  logger: Logger,
): Promise<object> {
  const call: CallContext<P> = {
    principal,
    clientName: clientNameOf(req),
    requestId: String(req.id ?? ''),
    now: clock(),
    log: (req as { log?: Logger }).log ?? logger,
  };
  return op.handler(input, call);
}
