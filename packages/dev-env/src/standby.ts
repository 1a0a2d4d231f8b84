import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { createPool } from '@frontdesk/db';

/** Where Debian puts PostgreSQL 15's server programs. */
export const PG_BIN = process.env.FD_PG_BIN ?? '/usr/lib/postgresql/15/bin';

/** A primary and a streaming standby of it, each a server of its own in a temporary folder. */
export interface PrimaryAndStandby {
  primaryUrl: string;
  standbyUrl: string;
  /** SQL on the standby as its superuser (pausing and resuming replay). */
  standbySql<R extends object = Record<string, unknown>>(text: string): Promise<R[]>;
  /** Stops both servers and removes their folders. */
  stop(): void;
}

/**
 * Why this machine cannot run a primary and a standby of its own, or null when it can: the
 * servers run as the `postgres` user, so the programs must be there and we must be that user
 * or root (with runuser to become it).
 */
export function whyNoStandby(): string | null {
  for (const program of ['initdb', 'pg_ctl', 'pg_basebackup']) if (!existsSync(join(PG_BIN, program))) return `${join(PG_BIN, program)} is missing`;
  const me = userInfo().username;
  if (me !== 'postgres' && process.getuid?.() !== 0) return `running as ${me}: starting servers as postgres needs root or the postgres user`;
  if (me !== 'postgres' && !existsSync('/usr/sbin/runuser') && !existsSync('/sbin/runuser')) return 'runuser is missing';
  return null;
}

/** Runs one of the server programs as `postgres`; throws with its output when it fails. */
function asPostgres(program: string, args: string[]): string {
  const path = join(PG_BIN, program);
  const res =
    userInfo().username === 'postgres'
      ? spawnSync(path, args, { encoding: 'utf8' })
      : spawnSync('runuser', ['-u', 'postgres', '--', path, ...args], { encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`${program} ${args.join(' ')} failed: ${res.stderr || res.stdout || res.error?.message}`);
  return res.stdout;
}

/** Servers of our own in one temporary folder the postgres user can read: started, then stopped and removed together. */
function serverFolder(prefix: string) {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(folder, 0o777);
  const started: string[] = [];
  return {
    folder,
    start(dir: string, port: number, log: string) {
      // The socket goes into the folder too: /var/run/postgresql may not exist or be ours.
      asPostgres('pg_ctl', ['-D', dir, '-l', join(folder, log), '-w', '-t', '60', '-o', `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1`, 'start']);
      started.push(dir);
    },
    stop() {
      for (const dir of started.reverse()) {
        try {
          asPostgres('pg_ctl', ['-D', dir, '-m', 'immediate', '-w', 'stop']);
        } catch {
          // already stopped
        }
      }
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** A new cluster in `dir`: trust authentication, quick and never durable (fsync off), room for the hosts' pools, ready to stream to a standby. */
function initServer(dir: string): void {
  asPostgres('initdb', ['-D', dir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  writeFileSync(
    join(dir, 'postgresql.auto.conf'),
    [
      'fsync = off',
      'synchronous_commit = on',
      'max_connections = 200',
      'shared_buffers = 64MB',
      'wal_level = replica',
      'max_wal_senders = 4',
      'hot_standby = on',
      '',
    ].join('\n'),
  );
}

/**
 * A server of PG_BIN's version alone on `port` (127.0.0.1, trust), for a test that needs that
 * version (the restore drill, whose pg_dump must not be older than the server).
 */
export async function startThrowawayServer(port: number): Promise<{ url: string; stop(): void }> {
  const servers = serverFolder('fd-server-');
  try {
    initServer(join(servers.folder, 'data'));
    servers.start(join(servers.folder, 'data'), port, 'server.log');
  } catch (err) {
    servers.stop();
    throw err;
  }
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, stop: () => servers.stop() };
}

/**
 * Starts a fresh primary on `ports.primary` and a standby of it (pg_basebackup -R, streaming
 * replication, hot standby) on `ports.standby`, both listening on 127.0.0.1 with trust
 * authentication, in a folder under the system's temporary folder that the postgres user can read.
 */
export async function startPrimaryAndStandby(ports: { primary: number; standby: number }): Promise<PrimaryAndStandby> {
  const servers = serverFolder('fd-replica-');
  const primaryDir = join(servers.folder, 'primary');
  const standbyDir = join(servers.folder, 'standby');
  const stop = () => servers.stop();
  try {
    initServer(primaryDir);
    servers.start(primaryDir, ports.primary, 'primary.log');
    asPostgres('pg_basebackup', ['-h', '127.0.0.1', '-p', String(ports.primary), '-U', 'postgres', '-D', standbyDir, '-R', '-X', 'stream', '--no-sync']);
    servers.start(standbyDir, ports.standby, 'standby.log');
  } catch (err) {
    stop();
    throw err;
  }
  const primaryUrl = `postgres://postgres@127.0.0.1:${ports.primary}/postgres`;
  const standbyUrl = `postgres://postgres@127.0.0.1:${ports.standby}/postgres`;
  return {
    primaryUrl,
    standbyUrl,
    standbySql: async <R extends object>(text: string) => {
      const pool = createPool(standbyUrl, { maxConnections: 1 });
      try {
        return (await pool.query(text)).rows as R[];
      } finally {
        await pool.end();
      }
    },
    stop,
  };
}
