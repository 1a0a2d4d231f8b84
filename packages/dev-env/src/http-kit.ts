import type { Server } from 'node:http';
import { Writable } from 'node:stream';
import type { Express, Request } from 'express';
import {
  ForbiddenError,
  InvalidInputError,
  answer,
  anything,
  boolean,
  fields,
  int,
  integer,
  listOf,
  mapOf,
  nullable,
  number,
  oneOf,
  text,
} from '@frontdesk/domain';
import {
  closeServer,
  createLogger,
  createServiceApp,
  operationsFor,
  listen,
  UnauthorizedError,
  type CredentialRateLimit,
  type IdempotencyOptions,
  type Operation,
} from '@frontdesk/http';

/** Who calls the tiny test registry: a key names one caller, `forbidden_` ones lack the scope. */
export interface Caller {
  id: string;
}

const echoed = answer({ input: mapOf(anything), calls: int }, ['calls']);

/** Defines an operation of the tiny test registry. */
const defineOperation = operationsFor<Caller>();

/** A read with one of each kind of query parameter the operations use. */
export const readOp = defineOperation({
  name: 'echo_query',
  tag: 'echo',
  title: 'Echo a query',
  description: 'Answers with the input it was given.',
  method: 'GET',
  input: fields(
    {
      count: integer({ minimum: 1, maximum: 10 }),
      ratio: number({ minimum: 0, multipleOf: 0.5 }),
      flag: boolean(),
      kind: oneOf(['deep', 'standard']),
      zip: text({ pattern: '^[0-9]{5}$' }),
      tags: listOf(text({ minLength: 1 }), { maxItems: 3 }),
      nums: listOf(integer({ minimum: 0 })),
      at: text({ minLength: 1, maxLength: 40 }),
      days: integer({ minimum: 1, maximum: 21, default: 7 }),
    },
    ['count'],
  ),
  output: echoed,
  readOnly: true,
  async handler(input) {
    return { input };
  },
});

let writes = 0;
/** A write with nested objects, lists of objects and a nullable field, counting its runs. */
export const writeOp = defineOperation({
  name: 'echo_body',
  tag: 'echo',
  title: 'Echo a body',
  description: 'Answers with the input it was given and how many writes ran.',
  method: 'POST',
  input: fields(
    {
      name: text({ minLength: 1, maxLength: 5 }),
      count: integer({ minimum: 0 }),
      phone: nullable(text({ maxLength: 30 })),
      prices: fields({ base: number({ minimum: 0 }) }),
      items: listOf(fields({ n: int }, ['n']), { maxItems: 2 }),
      size: oneOf(['small', 'large'], { default: 'small' }),
    },
    ['name'],
  ),
  output: echoed,
  readOnly: false,
  async handler(input) {
    writes += 1;
    return { input, calls: writes };
  },
});

/** A write refused by its rule, or failing inside, or reaching a database that is away, as its input says. */
export const failOp = defineOperation({
  name: 'fail_write',
  tag: 'echo',
  title: 'Fail',
  description: 'Fails as asked.',
  method: 'POST',
  input: fields({ how: oneOf(['refused', 'broken', 'away']) }, ['how']),
  output: echoed,
  readOnly: false,
  async handler({ how }) {
    if (how === 'refused') throw new InvalidInputError('That cannot be done today.');
    if (how === 'away') throw Object.assign(new Error('connection refused'), { code: 'DB_AWAY' });
    throw new Error('internal detail 0xdeadbeef');
  },
});

/** A read whose answer breaks its own output schema. */
export const liarOp = defineOperation({
  name: 'say_count',
  tag: 'echo',
  title: 'Say a count',
  description: 'Answers with text where a number is promised.',
  method: 'GET',
  input: fields({}),
  output: answer({ count: int }),
  readOnly: true,
  async handler() {
    // The compiler refuses this answer (its type comes from the output schema); the cast lets it through to test the check at run time.
    return { count: 'three' } as unknown as { count: number };
  },
});

export const OPERATIONS = [readOp, writeOp, failOp, liarOp] as Operation<Caller>[];

/** Bearer <id> is the caller <id>; no header is a 401. */
async function authenticate(req: Request): Promise<Caller> {
  const id = /^Bearer (\S+)$/.exec(req.get('authorization') ?? '')?.[1];
  if (!id) throw new UnauthorizedError('Send Authorization: Bearer <key>.');
  return { id };
}

function authorize(caller: Caller, op: Operation<Caller>): void {
  if (caller.id.startsWith('forbidden_') && !op.readOnly) throw new ForbiddenError('This key may only read.');
}

export interface KitOptions {
  rateLimit?: CredentialRateLimit<Caller>;
  idempotency?: IdempotencyOptions<Caller>;
  /** REQUEST_DEADLINE_MS for the kit's requests (8 s unless given). */
  requestDeadlineMs?: number;
  /** Operations instead of the tiny registry's own. */
  operations?: Operation<Caller>[];
}

export interface Kit {
  app: Express;
  url: string;
  /** Every line the app logged, parsed. */
  logs: Record<string, unknown>[];
  close(): Promise<void>;
}

/** The tiny registry as a whole service app (createServiceApp), listening on a free port. */
export async function startKit(opts: KitOptions = {}, level = 'info'): Promise<Kit> {
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, next) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) logs.push(JSON.parse(line) as Record<string, unknown>);
      next();
    },
  });
  const logger = createLogger('kit', level, sink);
  const app = createServiceApp<Caller>({
    title: 'Kit',
    description: 'The http kit under test.',
    version: '1.0.0',
    publicUrl: 'http://kit.test',
    mcp: { serverInfo: { name: 'kit', title: 'Kit', version: '1.0.0' }, instructions: 'Test only.', allowedOrigins: ['https://claude.ai'] },
    operations: OPERATIONS,
    authenticate,
    authorize,
    clock: () => new Date(),
    logger,
    checkAnswers: true,
    ready: async () => {},
    isUnavailable: (err) => (err as { code?: string }).code === 'DB_AWAY',
    ...opts,
  });
  const server: Server = await listen(app, 0, '127.0.0.1');
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { app, url, logs, close: () => closeServer(server) };
}

export const as = (id: string) => ({ authorization: `Bearer ${id}` });
