import type { Express } from 'express';
import type { Logger } from 'pino';
import type { DatabaseSettings, LogLevel } from '@frontdesk/config';
import type { CredentialRateLimit, RunOptions } from './call';
import type { WithinDeadline } from './idempotency';
import type { HostLimits } from './rate-limit';
import { createLogger } from './logger';
import { closeServer, listen, shutdownOnSignals } from './server';

/** What a host's context holds that decides how its calls run. */
interface RunContext {
  clock: () => Date;
  logger: Logger;
  changes?: { fence(): Promise<void> };
  config: { checkAnswers?: boolean; requestDeadlineMs?: number };
}

/**
 * How every call of a host runs, whether an assistant's or a page's: the same limits, checks
 * and fences. The host says only whose budget a call spends.
 */
export function hostRunOptions<P>(
  ctx: RunContext,
  o: { limits: HostLimits; subjectOf: CredentialRateLimit<P>['subjectOf']; withinDeadline: WithinDeadline },
): RunOptions<P> & { checkAnswers: boolean } {
  return {
    rateLimit: { host: o.limits, subjectOf: o.subjectOf },
    clock: ctx.clock,
    changes: ctx.changes,
    logger: ctx.logger,
    checkAnswers: ctx.config.checkAnswers ?? false,
    requestDeadlineMs: ctx.config.requestDeadlineMs,
    withinDeadline: o.withinDeadline,
  };
}

/** The settings every host's entry point reads from its config. */
interface HostConfig {
  port: number;
  publicUrl: string;
  logLevel: LogLevel;
  database: DatabaseSettings;
}

/** A host's database, its change feed, and how to close both. */
interface HostDb<D, F> {
  db: D;
  changes: F;
  close: () => Promise<void>;
}

/** What differs between the hosts' entry points; `runHost` does the rest in one order for both. */
export interface HostEntry<C extends HostConfig, D, F> {
  /** The logger's and the database connections' name, and the start of the log lines. */
  name: string;
  /** The variable that sets the port, named when the port is taken. */
  portVariable: string;
  readConfig: () => C;
  /** Runs before the database is opened (pro-desk migrates here when asked). */
  beforeOpen?: (config: C) => Promise<void>;
  openDb: (o: { applicationName: string; database: DatabaseSettings; logger: Logger }) => HostDb<D, F>;
  startWorkers: (parts: { db: D; changes: F; logger: Logger; clock: () => Date }, config: C) => { stop: () => Promise<void> };
  createApp: (ctx: { db: D; config: C; logger: Logger; clock: () => Date; changes: F }) => { app: Express };
}

async function startHost<C extends HostConfig, D, F>(e: HostEntry<C, D, F>): Promise<void> {
  const config = e.readConfig();
  const logger = createLogger(e.name, config.logLevel);
  await e.beforeOpen?.(config);
  const { db, changes, close } = e.openDb({ applicationName: e.name, database: config.database, logger });
  const clock = () => new Date();
  const workers = e.startWorkers({ db, changes, logger, clock }, config);
  const { app } = e.createApp({ db, config, logger, clock, changes });
  const server = await listen(app, config.port, '0.0.0.0', e.portVariable);
  shutdownOnSignals(logger, async () => {
    await closeServer(server);
    await workers.stop();
    await close();
  });
  logger.info({ port: config.port, url: config.publicUrl }, `${e.name} listening`);
}

/**
 * A deployable host's entry point: config, workers, app, serve, and on SIGTERM close in
 * order (server, workers, database). A failure to start is printed in one line, exit 1.
 */
export function runHost<C extends HostConfig, D, F>(entry: HostEntry<C, D, F>): void {
  startHost(entry).catch((err: unknown) => {
    process.stderr.write(`${entry.name} failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
