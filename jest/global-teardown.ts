import { dropDatabase } from '@frontdesk/db';

export default async function globalTeardown(): Promise<void> {
  const pg = globalThis.__FRONT_DESK_PG__;
  if (!pg) return;
  // Forgotten first, so a second call in the same run (two projects naming this file) stops nothing twice.
  globalThis.__FRONT_DESK_PG__ = undefined;
  await dropDatabase(pg.server.adminUrl, pg.template).catch(() => {});
  await pg.server.stop();
}
