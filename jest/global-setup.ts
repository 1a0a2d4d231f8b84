import { createTemplate, startTestServer, type TestServer } from '@frontdesk/db/testing';

declare global {
  var __FRONT_DESK_PG__: { server: TestServer; template: string } | undefined;
}

// Migrate once; every test file then clones this template (CREATE DATABASE … TEMPLATE),
// so files run in parallel and never share state. The integration and e2e projects both name
// this file: jest runs it once for the two, and should it ever be called again in the same
// run, the server already up is kept (global-teardown stops it once).
export default async function globalSetup(): Promise<void> {
  if (globalThis.__FRONT_DESK_PG__) return;
  const server = await startTestServer();
  const template = `fd_template_${Date.now().toString(36)}_${process.pid}`;
  await createTemplate(server.adminUrl, template);
  process.env.FD_TEST_ADMIN_URL = server.adminUrl;
  process.env.FD_TEST_TEMPLATE = template;
  // Every answer any test produces, in-process or from a spawned service, is checked against its declared schema.
  process.env.FRONT_DESK_CHECK_ANSWERS = '1';
  globalThis.__FRONT_DESK_PG__ = { server, template };
  process.stdout.write(`\nTests run on ${server.source}.\n`);
}
