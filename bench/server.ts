import express from 'express';
import { createDb } from '@frontdesk/db';
import { createLogger, listen } from '@frontdesk/http';
import { createProDeskApp, proKeyAuth } from '@frontdesk/pro-desk';

/**
 * The process under load: the pro-desk app on one port and, for the baseline, a bare
 * Express JSON endpoint behind the very same key check on another. Prints its ports.
 */
async function main(): Promise<void> {
  const db = createDb(process.env.DATABASE_URL!, { applicationName: 'bench', maxConnections: 10 });
  const logger = createLogger('bench', process.env.LOG_LEVEL ?? 'warn');
  const { app } = createProDeskApp({ db, config: { publicUrl: 'http://bench', bookingUrl: 'http://bench' }, logger, clock: () => new Date() });
  const auth = proKeyAuth({ db });
  const bare = express();
  bare.get('/bare', async (req, res) => {
    try {
      const pro = await auth(req);
      res.json({ ok: true, pro_id: pro.id });
    } catch {
      res.status(401).json({ error: 'unauthorized' });
    }
  });
  const api = await listen(app, 0, '127.0.0.1');
  const base = await listen(bare, 0, '127.0.0.1');
  const port = (s: typeof api) => (s.address() as { port: number }).port;
  process.stdout.write(`${JSON.stringify({ api: port(api), bare: port(base) })}\n`);
}

process.once('SIGTERM', () => process.exit(0));
process.once('SIGINT', () => process.exit(0));
void main();
