import type { Request, Response } from 'express';
import { AppError, inCustomerWords } from '@frontdesk/domain';
import {
  inPeoplesWords,
  runOperation,
  setErrorHeaders,
  type AnswerOf,
  type AnyOperation,
  type FieldLabels,
  type Holder,
  type Problem,
  type RunOptions,
} from '@frontdesk/http';
import type { Customer } from '../auth';
import type { AppContext } from '../context';
import type { BookingOperationSet } from '../operations';
import type { shownOnceSlots } from './shown-once';

/**
 * What the customer's pages run with: the operations (through the same runner as an
 * assistant's call, so the rules, limits and sentences are the API's), who they run them as,
 * and the slots they show a result once in.
 */
export interface PageDeps {
  ctx: AppContext;
  ops: BookingOperationSet;
  run: RunOptions<Customer>;
  shown: ReturnType<typeof shownOnceSlots>;
}

const PAGE_CLIENT = 'the booking page';
const visitor = (visit?: Holder): Customer => ({
  credential: 'public',
  email: null,
  scopes: new Set(['read', 'write']),
  user: { name: null, email: null, phone: null },
  ...(visit && { visit }),
});

/**
 * Who calls, when it matters who: the browser's visit (a hold is that visit's alone, and so are
 * its idempotency keys), and a key that makes a repeated form answer once.
 */
export interface AsVisitor {
  visit?: Holder;
  idempotencyKey?: string;
}

/** Runs an operation for a visitor of the page, naming the page as the client: its answer is typed by the operation's output schema. */
export const call = <O extends AnyOperation<Customer>>(d: PageDeps, op: O, input: unknown, req: Request): Promise<AnswerOf<O>> => callAs(d, op, input, { req });

/** The same, as this browser's visit and, when given, once per key. */
export async function callAs<O extends AnyOperation<Customer>>(d: PageDeps, op: O, input: unknown, as: AsVisitor & { req: Request }): Promise<AnswerOf<O>> {
  const principal = visitor(as.visit);
  const judged = { op, input, req: as.req, principal, idempotencyKey: as.idempotencyKey };
  return (await runOperation(judged, { ...d.run, clientName: PAGE_CLIENT })).result;
}

/** A refusal as the page says it: its sentence, with the headers the API would send. Anything else is not a refusal. */
export function refusal(res: Response, err: unknown): AppError {
  if (!(err instanceof AppError)) throw err;
  setErrorHeaders(res, err);
  return err;
}

/** A refusal in the customer's words: a field path becomes the form's label, other API words the page's. */
export function customerProblem(err: AppError, labels: FieldLabels): Problem {
  const p = inPeoplesWords(err.message, labels);
  const field = p.field ?? (/customer_phone or customer_email/.test(err.message) ? 'customer_phone' : undefined);
  return { text: inCustomerWords(p.text), field };
}

/** A manage link's token, as the links carry it. */
export const tokenOf = (req: Request) => String(req.params.token);
