import type { Request } from 'express';
import type { Logger } from 'pino';
import { InvalidInputError } from '@frontdesk/domain';
import { validateInput } from './input';
import type { CallContext, Operation } from './operation';

const CLIENT_NAME_MAX = 100;

/** The assistant's name from X-Client-Name, checked like a field. */
export function clientNameOf(req: Request): string | null {
  const name = req.get('x-client-name')?.trim();
  if (name && name.length > CLIENT_NAME_MAX) {
    throw new InvalidInputError(`X-Client-Name must be at most ${CLIENT_NAME_MAX} characters long.`);
  }
  return name ? name : null;
}

/**
 * The one way an operation runs, whichever transport (REST or MCP) brought the call: the
 * input is judged by the operation's schema here, so no transport can be laxer than another.
 */
export async function runOperation<P>(
  op: Operation<P>,
  input: unknown,
  req: Request,
  principal: P,
  clock: () => Date,
  logger: Logger,
): Promise<object> {
  const valid = validateInput(op, input);
  const call: CallContext<P> = {
    principal,
    clientName: clientNameOf(req),
    requestId: String(req.id ?? ''),
    now: clock(),
    log: (req as { log?: Logger }).log ?? logger,
  };
  return op.handler(valid, call);
}
