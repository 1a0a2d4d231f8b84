import { isDatabaseUnavailable } from '@frontdesk/db';
import type { Logger } from 'pino';

/** A job a process runs on a timer: `run` is given the injected clock's time of the tick. */
export interface Worker {
  name: string;
  everyMs: number;
  run(now: Date): Promise<unknown>;
  /** Waits for work a tick started and left running (the webhook sends); `stop` calls it. */
  drain?(): Promise<void>;
}

export interface Running {
  /** Stops scheduling and resolves once a tick that is running has finished. */
  stop(): Promise<void>;
  /** Ticks now, or as soon as the running tick has finished, instead of waiting for the timer. */
  wake(): void;
}

export interface TickerContext {
  clock: () => Date;
  logger: Pick<Logger, 'warn' | 'error'>;
  /** Told after every tick, whether it did its work or failed (a worker's heartbeat, for /metrics). */
  ticked?: (worker: string, ok: boolean) => void;
}

function report(worker: Worker, logger: TickerContext['logger'], err: unknown): void {
  // A database that is away is a state the next tick retries, not a fault of the worker.
  if (isDatabaseUnavailable(err)) logger.warn({ err: { message: (err as Error).message } }, `${worker.name} waits for the database`);
  else logger.error({ err }, `${worker.name} failed; the next tick tries again`);
}

/**
 * The one start/stop/overlap rule of every worker: the first tick at start, the next one
 * `everyMs` after the previous one finished (a slow tick never overlaps the next), and
 * `stop` clears the timer and waits for a running tick. The timer never keeps a process alive.
 */
export function startTicker(worker: Worker, ctx: TickerContext): Running {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let woken = false;
  const tick = async () => {
    try {
      await worker.run(ctx.clock());
      ctx.ticked?.(worker.name, true);
    } catch (err) {
      report(worker, ctx.logger, err);
      ctx.ticked?.(worker.name, false);
    }
  };
  const next = () => {
    woken = false;
    running = tick().then(() => {
      running = undefined;
      if (stopped) return;
      timer = setTimeout(next, woken ? 0 : worker.everyMs);
      timer.unref();
    });
  };
  next();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      await worker.drain?.();
    },
    wake() {
      if (stopped) return;
      if (running) {
        woken = true;
        return;
      }
      clearTimeout(timer);
      next();
    },
  };
}
