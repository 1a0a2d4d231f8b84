import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { bothHostsPerFile } from '@frontdesk/dev-env/both-hosts';

// Strict readers of /openapi.json: Spectral's OpenAPI ruleset and Redocly's recommended rules
// each judge both hosts' live documents, and find nothing to say, not even a warning. Their
// CLIs run from this package's node_modules, in child processes, on the documents as served.
const h = bothHostsPerFile();
const run = promisify(execFile);
const bin = (name: string) => resolve(__dirname, 'node_modules', '.bin', name);

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'fd-openapi-lint-'));
  writeFileSync(join(dir, '.spectral.yaml'), 'extends: ["spectral:oas"]\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const served = async (host: 'pro' | 'book') => {
  const file = join(dir, `${host}.json`);
  writeFileSync(file, JSON.stringify((await h[host].get('/openapi.json').expect(200)).body));
  return file;
};

interface SpectralResult {
  code: string;
  severity: number;
  message: string;
  path: string[];
}

describe('/openapi.json under strict linters', () => {
  it.each(['pro', 'book'] as const)('gets no error and no warning from Spectral (spectral:oas) on the %s host', async (host) => {
    const file = await served(host);
    const out = join(dir, `${host}.spectral.json`);
    // Spectral exits non-zero when it finds an error; the report says what, so it is read either way.
    await run(bin('spectral'), ['lint', '--ruleset', join(dir, '.spectral.yaml'), '--format', 'json', '--output', out, '--quiet', file]).catch(() => undefined);
    const results = JSON.parse(readFileSync(out, 'utf8')) as SpectralResult[];
    expect(results.map((r) => `${r.code} at ${r.path.join('.')}: ${r.message}`)).toEqual([]);
  });

  it.each(['pro', 'book'] as const)('gets no error and no warning from Redocly (recommended) on the %s host', async (host) => {
    const file = await served(host);
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
    const { stdout } = await run(bin('redocly'), ['lint', '--extends', 'recommended', '--format', 'json', file], { env }).catch((err: { stdout: string }) => ({
      stdout: err.stdout,
    }));
    const report = JSON.parse(stdout) as { totals: { errors: number; warnings: number }; problems: { ruleId: string; message: string }[] };
    expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it('turns up a problem when there is one, so a clean report means something', async () => {
    const file = join(dir, 'untagged.json');
    const doc = (await h.pro.get('/openapi.json').expect(200)).body;
    delete doc.paths['/api/v1/updates'].get.tags;
    delete doc.info.contact;
    delete doc.info.license;
    writeFileSync(file, JSON.stringify(doc));
    const out = join(dir, 'untagged.spectral.json');
    await run(bin('spectral'), ['lint', '--ruleset', join(dir, '.spectral.yaml'), '--format', 'json', '--output', out, '--quiet', file]).catch(() => undefined);
    const codes = (JSON.parse(readFileSync(out, 'utf8')) as SpectralResult[]).map((r) => r.code).sort();
    expect(codes).toEqual(['info-contact', 'operation-tags']);
    const { stdout } = await run(bin('redocly'), ['lint', '--extends', 'recommended', '--format', 'json', file], {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    }).catch((err: { stdout: string }) => ({ stdout: err.stdout }));
    expect((JSON.parse(stdout) as { problems: { ruleId: string }[] }).problems.map((p) => p.ruleId)).toEqual(['info-license']);
  });
});
