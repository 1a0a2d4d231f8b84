import type { Server } from 'node:http';
import { Writable } from 'node:stream';
import type { Express, Request } from 'express';
import { ForbiddenError, InvalidInputError } from '@frontdesk/domain';
import {
  closeServer,
  createLogger,
  createServiceApp,
  defineOperation,
  listen,
  UnauthorizedError,
  type CredentialRateLimit,
  type IdempotencyOptions,
  type ObjectSchema,
  type Operation,
} from '@frontdesk/http';

/** Who calls the tiny test registry: a key names one caller, `forbidden_` ones lack the scope. */
export interface Caller {
  id: string;
}

const echoed: ObjectSchema = {
  type: 'object',
  properties: { input: { type: 'object' }, calls: { type: 'integer' } },
  required: ['input'],
  additionalProperties: false,
};

/** A read with one of each kind of query parameter the operations use. */
export const readOp = defineOperation<Caller, Record<string, unknown>>({
  name: 'echo_query',
  title: 'Echo a query',
  description: 'Answers with the input it was given.',
  method: 'GET',
  input: {
    type: 'object',
    properties: {
      count: { type: 'integer', minimum: 1, maximum: 10 },
      ratio: { type: 'number', minimum: 0, multipleOf: 0.5 },
      flag: { type: 'boolean' },
      kind: { type: 'string', enum: ['deep', 'standard'] },
      zip: { type: 'string', pattern: '^[0-9]{5}$' },
      tags: { type: 'array', items: { type: 'string', minLength: 1 }, maxItems: 3 },
      nums: { type: 'array', items: { type: 'integer', minimum: 0 } },
      at: { type: 'string', minLength: 1, maxLength: 40 },
      days: { type: 'integer', minimum: 1, maximum: 21, default: 7 },
    },
    required: ['count'],
    additionalProperties: false,
  },
  output: echoed,
  readOnly: true,
  async handler(input) {
    return { input };
  },
});

let writes = 0;
/** A write with nested objects, lists of objects and a nullable field, counting its runs. */
export const writeOp = defineOperation<Caller, Record<string, unknown>>({
  name: 'echo_body',
  title: 'Echo a body',
  description: 'Answers with the input it was given and how many writes ran.',
  method: 'POST',
  input: {
    type: 'object',
    properties: {
      name: { type: 'string', minLength: 1, maxLength: 5 },
      count: { type: 'integer', minimum: 0 },
      phone: { type: 'string', maxLength: 30, nullable: true },
      prices: { type: 'object', properties: { base: { type: 'number', minimum: 0 } }, additionalProperties: false },
      items: {
        type: 'array',
        maxItems: 2,
        items: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'], additionalProperties: false },
      },
      size: { type: 'string', enum: ['small', 'large'], default: 'small' },
    },
    required: ['name'],
    additionalProperties: false,
  },
  output: echoed,
  readOnly: false,
  async handler(input) {
    writes += 1;
    return { input, calls: writes };
  },
});

/** A write refused by its rule, or failing inside, or reaching a database that is away, as its input says. */
export const failOp = defineOperation<Caller, { how: string }>({
  name: 'fail_write',
  title: 'Fail',
  description: 'Fails as asked.',
  method: 'POST',
  input: { type: 'object', properties: { how: { type: 'string', enum: ['refused', 'broken', 'away'] } }, required: ['how'], additionalProperties: false },
  output: echoed,
  readOnly: false,
  async handler({ how }) {
    if (how === 'refused') throw new InvalidInputError('That cannot be done today.');
    if (how === 'away') throw Object.assign(new Error('connection refused'), { code: 'DB_AWAY' });
    throw new Error('internal detail 0xdeadbeef');
  },
});

/** A read whose answer breaks its own output schema. */
export const liarOp = defineOperation<Caller, Record<string, never>>({
  name: 'say_count',
  title: 'Say a count',
  description: 'Answers with text where a number is promised.',
  method: 'GET',
  input: { type: 'object', properties: {}, additionalProperties: false },
  output: { type: 'object', properties: { count: { type: 'integer' } }, required: ['count'], additionalProperties: false },
  readOnly: true,
  async handler() {
    return { count: 'three' };
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
