import { dropDatabase } from '@frontdesk/db';

export default async function globalTeardown(): Promise<void> {
  const pg = globalThis.__FRONT_DESK_PG__;
  if (!pg) return;
  await dropDatabase(pg.server.adminUrl, pg.template).catch(() => {});
  await pg.server.stop();
}
