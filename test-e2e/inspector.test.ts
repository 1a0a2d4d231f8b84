import { PRO_DESK_OPERATIONS } from '@frontdesk/dev-env/pro-desk';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { createDatabase, dropDatabase, freePort } from '@frontdesk/db';
import { cli, ROOT, startService, type RunningService } from './helpers';

// Processes start and answer slower on a busy machine: limits that fit the work, and every wait is on readiness.
jest.setTimeout(120_000);

// The MCP Inspector's CLI, a client we did not write, against both services as processes.
const admin = () => process.env.FD_TEST_ADMIN_URL!;
const INSPECTOR = resolve(__dirname, 'node_modules/.bin/mcp-inspector');
let name: string;
let key: string;
const services: RunningService[] = [];
const urls: Record<string, string> = {};

function inspector(url: string, args: string[], headers: string[]) {
  const res = spawnSync(INSPECTOR, ['--cli', url, '--transport', 'http', ...args, ...headers.flatMap((h) => ['--header', h])], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 90_000,
    env: { ...process.env, MCP_CATALOG_PATH: resolve(ROOT, 'node_modules/.cache/mcp-inspector.json') },
  });
  return { status: res.status, stdout: res.stdout, stderr: res.stderr };
}

beforeAll(async () => {
  name = `fd_insp_${randomBytes(4).toString('hex')}`;
  const env = { DATABASE_URL: await createDatabase(admin(), name), PUBLIC_SHARED_KEY: 'fdpub_inspector_key' };
  cli(['migrate'], env);
  key = JSON.parse(cli(['pro', 'create', '--name', 'Inspected', '--timezone', 'America/New_York', '--zips', '10001', '--json'], env).stdout).api_key;
  for (const [svc, portVar] of [
    ['pro-desk', 'PRO_DESK_PORT'],
    ['booking', 'BOOKING_PORT'],
  ] as const) {
    const port = await freePort();
    services.push(await startService(`services/${svc}/src/main.ts`, { ...env, [portVar]: String(port) }, `http://127.0.0.1:${port}/readyz`));
    urls[svc] = `http://127.0.0.1:${port}/mcp`;
  }
});
afterAll(async () => {
  await Promise.all(services.map((s) => s.stop()));
  await dropDatabase(admin(), name);
});

describe('the MCP Inspector CLI', () => {
  it('lists the pro host tools and calls one with the pro key', () => {
    const list = inspector(urls['pro-desk']!, ['--method', 'tools/list'], [`Authorization: Bearer ${key}`]);
    expect(list.status).toBe(0);
    const tools = JSON.parse(list.stdout).tools as { name: string }[];
    expect(tools.map((t) => t.name).sort()).toEqual(PRO_DESK_OPERATIONS);
    const call = inspector(
      urls['pro-desk']!,
      ['--method', 'tools/call', '--tool-name', 'quote_job', '--tool-arg', 'bedrooms=3', '--tool-arg', 'bathrooms=2'],
      [`Authorization: Bearer ${key}`],
    );
    expect(call.status).toBe(0);
    expect(JSON.parse(call.stdout).structuredContent).toMatchObject({ total: 170, estimated_hours: 1.75 });
  });

  it('lists the book host tools with the shared public key', () => {
    const list = inspector(urls.booking!, ['--method', 'tools/list'], ['Authorization: Bearer fdpub_inspector_key']);
    expect(list.status).toBe(0);
    expect((JSON.parse(list.stdout).tools as { name: string }[]).map((t) => t.name)).toContain('book_cleaning');
  });

  it('finds cleaners with the example of docs/mcp.md: a ZIP passed as a JSON string, not a number', () => {
    const auth = ['Authorization: Bearer fdpub_inspector_key'];
    const args = ['--method', 'tools/call', '--tool-name', 'find_cleaners', '--tool-arg', 'bedrooms=2', '--tool-arg', 'bathrooms=1'];
    const asNumber = inspector(urls.booking!, [...args, '--tool-arg', 'zip=10001'], auth);
    expect(JSON.parse(asNumber.stdout)).toMatchObject({ isError: true, content: [{ text: 'zip must be text.' }] });
    const asText = inspector(urls.booking!, [...args, '--tool-arg', 'zip="10001"'], auth);
    expect(asText.status).toBe(0);
    expect(JSON.parse(asText.stdout).isError).toBeUndefined();
    expect(Array.isArray(JSON.parse(asText.stdout).structuredContent.cleaners)).toBe(true);
  });

  it('fails with a non-zero exit code when the key is wrong', () => {
    const denied = inspector(urls['pro-desk']!, ['--method', 'tools/list'], ['Authorization: Bearer fdk_not_a_real_key']);
    expect(denied.status).not.toBe(0);
    // A 401 makes an MCP client start OAuth discovery: the Inspector says auth is required.
    expect(`${denied.stdout}${denied.stderr}`).toMatch(/auth_required|401|Unauthorized/i);
  });
});
