import { startKit, as, failOp, type Kit, type Caller } from '@frontdesk/dev-env/http-kit';
import { answer, fields, int, oneOf } from '@frontdesk/domain';
import { operationsFor, type Operation } from '../src';

// The request deadline (deadline.ts): a handler that never answers is answered 503 at its
// deadline, and an error met once the deadline has come is answered as the deadline, in its
// words, however it reached the error path: the timer and the error are one answer, never two,
// and never the error's own. The database's side (no commit after the 503) is
// test-e2e/database-faults.test.ts's and services/pro-desk/test/page-deadline.test.ts's.
const DEADLINE_MS = 1000;
const LATE = /could not answer within 1 seconds/;

const defineOperation = operationsFor<Caller>();
/** Blocks the process until the deadline is behind it, so no timer can answer first, then fails as asked. */
const lateOp = defineOperation({
  name: 'fail_late',
  tag: 'late',
  title: 'Fail late',
  description: 'Fails after its deadline, as asked.',
  method: 'POST',
  input: fields({ how: oneOf(['away', 'refused']) }, ['how']),
  output: answer({ n: int }),
  readOnly: true,
  async handler({ how }) {
    const until = Date.now() + DEADLINE_MS + 100;
    while (Date.now() < until);
    if (how === 'away') throw Object.assign(new Error('connection refused'), { code: 'DB_AWAY' });
    throw new Error('a failure nobody is told of');
  },
});
const hangOp = defineOperation({
  name: 'hang',
  tag: 'late',
  title: 'Hang',
  description: 'Never answers.',
  method: 'GET',
  input: fields({}),
  output: answer({ n: int }),
  readOnly: true,
  handler: () => new Promise<never>(() => {}),
});

let kit: Kit;
beforeAll(async () => {
  kit = await startKit({ requestDeadlineMs: DEADLINE_MS, operations: [lateOp, hangOp, failOp] as Operation<Caller>[] });
});
afterAll(() => kit.close());

const mcpCall = (name: string, args: object) =>
  fetch(`${kit.url}/mcp`, {
    method: 'POST',
    headers: { ...as('ann'), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });

async function expectDeadline(res: Response): Promise<string> {
  const body = await res.text();
  expect({ status: res.status, retryAfter: res.headers.get('retry-after') }).toEqual({ status: 503, retryAfter: '2' });
  expect(body).toMatch(LATE);
  return body;
}

it('answers a handler that never answers 503 at its deadline, over REST and MCP', async () => {
  expect(JSON.parse(await expectDeadline(await fetch(`${kit.url}/api/v1/hang`, { headers: as('ann') })))).toEqual({ error: expect.stringMatching(LATE) });
  expect(JSON.parse(await expectDeadline(await mcpCall('hang', {})))).toMatchObject({
    jsonrpc: '2.0',
    error: { code: -32603, message: expect.stringMatching(LATE) },
  });
});

it.each(['away', 'refused'])('answers an error met past the deadline (%s) as the deadline, not as the error, over REST and MCP', async (how) => {
  const rest = await fetch(`${kit.url}/api/v1/fail_late`, {
    method: 'POST',
    headers: { ...as('ann'), 'content-type': 'application/json' },
    body: JSON.stringify({ how }),
  });
  expect(JSON.parse(await expectDeadline(rest))).toEqual({ error: expect.stringMatching(LATE) });
  expect(JSON.parse(await expectDeadline(await mcpCall('fail_late', { how })))).toMatchObject({
    jsonrpc: '2.0',
    error: { code: -32603, message: expect.stringMatching(LATE) },
  });
  // Neither is logged as a failure: the deadline said what there was to say.
  expect(kit.logs.filter((l) => l.level === 50)).toEqual([]);
});

it('answers an error met before the deadline as itself', async () => {
  const res = await fetch(`${kit.url}/api/v1/fail_write`, {
    method: 'POST',
    headers: { ...as('ann'), 'content-type': 'application/json' },
    body: JSON.stringify({ how: 'away' }),
  });
  expect(res.status).toBe(503);
  expect(((await res.json()) as { error: string }).error).toMatch(/could not reach its database just now/);
});
