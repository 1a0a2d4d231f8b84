import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { projectRoot as rootOf } from './project-root';

/**
 * Builds the MCP Apps views (views/*.ts) into one self-contained HTML document each, under the
 * host that serves it (services/<host>/dist/views/<view>.html, read by its AppView). The
 * official App class (@modelcontextprotocol/ext-apps) is bundled in: no CDN, no request. The
 * document's own CSP allows its one script by hash and no connection at all.
 */

const VIEWS = [
  { host: 'booking', name: 'offers', title: 'Cleaners and open times' },
  { host: 'booking', name: 'times', title: 'Open times' },
  { host: 'booking', name: 'booking', title: 'Your cleaning' },
  { host: 'pro-desk', name: 'day', title: 'Today and tomorrow' },
  { host: 'pro-desk', name: 'lead', title: 'A new lead' },
] as const;

const projectRoot = rootOf();
const requireHere = createRequire(path.join(projectRoot, 'package.json'));
const zodEnglish = requireHere.resolve('zod/v4/locales/en.js');

/**
 * Leaves out what a view never runs: zod's messages in forty languages (the App speaks English
 * to no one: its errors are the host's) and the Cloudflare Workers schema validator.
 */
const lean: esbuild.Plugin = {
  name: 'lean',
  setup(b) {
    b.onResolve({ filter: /\/locales\/index\.js$/ }, () => ({ path: 'locales', namespace: 'lean' }));
    b.onResolve({ filter: /cfWorkerProvider/ }, () => ({ path: 'cf', namespace: 'lean' }));
    b.onLoad({ filter: /^locales$/, namespace: 'lean' }, () => ({
      contents: `export { default as en } from ${JSON.stringify(zodEnglish)};`,
      resolveDir: projectRoot,
    }));
    b.onLoad({ filter: /^cf$/, namespace: 'lean' }, () => ({ contents: 'export const t = class {};', resolveDir: projectRoot }));
  },
};

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const css = readFileSync(path.join(projectRoot, 'views/style.css'), 'utf8').replace(/\s*\n\s*/g, ' ');

export async function buildViews(): Promise<{ file: string; bytes: number }[]> {
  const built: { file: string; bytes: number }[] = [];
  for (const v of VIEWS) {
    const out = await esbuild.build({
      entryPoints: [path.join(projectRoot, 'views', `${v.name}.ts`)],
      bundle: true,
      minify: true,
      format: 'iife',
      platform: 'browser',
      target: 'es2022',
      write: false,
      legalComments: 'none',
      plugins: [lean],
      logLevel: 'error',
    });
    const script = out.outputFiles[0]!.text.replace(/<\/script/gi, '<\\/script').trim();
    const csp = `default-src 'none'; script-src ${sha256(script)}; style-src 'unsafe-inline'; img-src data:; connect-src 'none'; base-uri 'none'; form-action 'none'`;
    const doc = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<title>${v.title}</title>
<style>${css}</style>
</head>
<body>
<main id="view"><p>Loading…</p></main>
<p id="status" role="status" aria-live="polite"></p>
<script>${script}</script>
</body>
</html>
`;
    const dir = path.join(projectRoot, 'services', v.host, 'dist', 'views');
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${v.name}.html`);
    writeFileSync(file, doc);
    built.push({ file: path.relative(projectRoot, file), bytes: Buffer.byteLength(doc) });
  }
  return built;
}

if (process.argv[1]?.endsWith('build-views.ts')) {
  void buildViews().then((built) => {
    for (const b of built) console.log(`${b.file}: ${(b.bytes / 1024).toFixed(1)} KB`);
  });
}
