import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * PostgreSQL's own client programs (pg_dump, pg_restore), found on this machine: on PATH or
 * where Debian and Ubuntu install each version (/usr/lib/postgresql/<major>/bin). A dump
 * needs a pg_dump of the server's major version or newer, and a restore a pg_restore as new.
 */
export type PgTool = 'pg_dump' | 'pg_restore';

export interface FoundTool {
  path: string;
  /** The major version it reports (`pg_dump (PostgreSQL) 17.2` is 17). */
  major: number;
  /** What it says of itself, e.g. `pg_dump (PostgreSQL) 17.2`. */
  version: string;
}

/** Every copy of `tool` this machine has, each with the version it reports. */
export function findTools(tool: PgTool, path = process.env.PATH ?? ''): FoundTool[] {
  const dirs = path.split(delimiter).filter(Boolean);
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) for (const v of readdirSync(debian)) dirs.push(join(debian, v, 'bin'));
  const seen = new Set<string>();
  const found: FoundTool[] = [];
  for (const dir of dirs) {
    const file = join(dir, tool);
    if (!existsSync(file)) continue;
    // One program under several names (/bin is /usr/bin on merged systems) is listed once.
    const real = realpathSync(file);
    if (seen.has(real)) continue;
    seen.add(real);
    const res = spawnSync(file, ['--version'], { encoding: 'utf8', timeout: 10_000 });
    const m = /\(PostgreSQL\)\s+(\d+)/.exec(res.stdout ?? '');
    if (res.status === 0 && m) found.push({ path: file, major: Number(m[1]), version: res.stdout.trim() });
  }
  return found;
}

/**
 * The copy to use with a server of major version `serverMajor`: one of the same major
 * version, else the newest newer one (a newer pg_dump reads an older server; an older one
 * refuses a newer server). None fits: null.
 */
export function chooseTool(found: readonly FoundTool[], serverMajor: number): FoundTool | null {
  const same = found.find((t) => t.major === serverMajor);
  if (same) return same;
  const newer = found.filter((t) => t.major > serverMajor).sort((a, b) => b.major - a.major);
  return newer[0] ?? null;
}

/** The copy of `tool` for a server of `serverMajor`, or an error saying what was found and what to install. */
export function pgTool(tool: PgTool, serverMajor: number): FoundTool {
  const found = findTools(tool);
  const chosen = chooseTool(found, serverMajor);
  if (chosen) return chosen;
  const had = found.length ? `only ${found.map((t) => `${t.path} (PostgreSQL ${t.major})`).join(', ')}` : 'none';
  throw new Error(
    `No ${tool} of PostgreSQL ${serverMajor} or newer was found on PATH or in /usr/lib/postgresql/*/bin (${had}). ` +
      `Install PostgreSQL ${serverMajor}'s client programs (Debian and Ubuntu: postgresql-client-${serverMajor} from apt.postgresql.org; ` +
      `macOS: brew install postgresql@${serverMajor}) and put them on PATH.`,
  );
}

/**
 * A connection for PostgreSQL's programs: the URL without its password, and the password in
 * PGPASSWORD, so it never shows in the process list.
 */
export function libpqConnection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = '';
  return { dbname: u.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

/** Runs a PostgreSQL program to its end; answers its output, or fails with what it printed on stderr. */
export function runTool(tool: FoundTool, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool.path, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code === 0) resolve(out);
      else reject(new Error(`${tool.path} exited with ${code}: ${err.trim() || 'no message'}`));
    });
  });
}
