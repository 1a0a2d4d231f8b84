import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import ts from 'typescript';
import { VIEW_MAX_BYTES } from '../packages/http/src/apps';
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

/**
 * Lets esbuild drop what a view never reaches in the MCP SDK's builds. Their modules build
 * their values at the top (`const XSchema = z.object({...})`, a few hundred of them), and a
 * call there is kept whether or not anything uses its result, since esbuild cannot know the
 * call does nothing else. Each such initializer is wrapped as `/* @__PURE__ *\/ (() => (…))()`:
 * evaluated where it was, in the same order, when used, and left out when unused. This is the
 * annotation the packages could carry themselves; nothing is rewritten but where it sits.
 */
const PURE_PACKAGES = /node_modules\/@modelcontextprotocol\/(client|core|ext-apps)\/dist\/.*\.m?js$/;

/** True when an expression already costs nothing to leave out (a function, a literal, a name). */
function freeToDrop(e: ts.Expression): boolean {
  return (
    ts.isArrowFunction(e) ||
    ts.isFunctionExpression(e) ||
    ts.isIdentifier(e) ||
    ts.isLiteralExpression(e) ||
    e.kind === ts.SyntaxKind.TrueKeyword ||
    e.kind === ts.SyntaxKind.FalseKeyword ||
    e.kind === ts.SyntaxKind.NullKeyword
  );
}

/** True when `node` awaits or yields outside any function of its own (it cannot move into one). */
function suspends(node: ts.Node): boolean {
  if (ts.isAwaitExpression(node) || ts.isYieldExpression(node) || (ts.isForOfStatement(node) && node.awaitModifier)) return true;
  if (ts.isFunctionLike(node) || ts.isClassLike(node)) return false;
  return ts.forEachChild(node, suspends) ?? false;
}

export function pureTopLevel(source: string, file: string): string {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const edits: { at: number; text: string }[] = [];
  for (const st of sf.statements) {
    if (!ts.isVariableStatement(st)) continue;
    for (const d of st.declarationList.declarations) {
      const init = d.initializer;
      if (!init || !ts.isIdentifier(d.name) || freeToDrop(init) || suspends(init)) continue;
      edits.push({ at: init.getStart(sf), text: '/* @__PURE__ */ (() => (' }, { at: init.end, text: '))()' });
    }
  }
  let out = source;
  for (const e of edits.sort((a, b) => b.at - a.at)) out = out.slice(0, e.at) + e.text + out.slice(e.at);
  return out;
}

/**
 * `import { z as Q } from "zod/v4"` (ext-apps' build) makes esbuild build zod's whole namespace
 * as an object, and so keep every function zod has (JSON Schema in both directions, the
 * compiler, …). zod/v4 exports each of those names itself, so `import * as Q` is the same
 * binding that esbuild can follow name by name.
 */
const zodNamespace = (source: string) =>
  source.replace(
    /import\s*\{\s*z(?:\s+as\s+([\w$]+))?\s*\}\s*from\s*(["'])zod\/v4\2/g,
    (_m, as: string | undefined, q: string) => `import * as ${as ?? 'z'} from ${q}zod/v4${q}`,
  );

/**
 * The client's build fills two registries of every spec type's schema (`specTypeSchemas`,
 * `isSpecType`) with a loop at the top of its module: a statement, so it and the hundred-odd
 * schemas it names stay in every bundle, though the App never reads either registry. The loops
 * move, as written, into a function the two registries' own initializers call first, so the
 * registries are filled exactly when something reads them, and left out with their schemas
 * when nothing does. The text is matched exactly: a client whose build differs fails the build
 * here rather than being changed unseen.
 */
const SPEC_LOOPS = `for (const key of SPEC_SCHEMA_KEYS) register(key, schemas_exports[key]);
for (const [key, schema] of Object.entries(authSchemas)) register(key, schema);`;
function deferSpecRegistries(source: string, file: string): string {
  if (!source.includes('const _specTypeSchemas = {};')) return source;
  const reads = ['Object.freeze(_specTypeSchemas)', 'Object.freeze(_isSpecType)'];
  if (source.split(SPEC_LOOPS).length !== 2 || reads.some((r) => source.split(r).length !== 2))
    throw new Error(`${file}: the spec-type registries are not built as this script expects; look again at deferSpecRegistries`);
  let out = source.replace(
    SPEC_LOOPS,
    `let specTypesFilled = false;\nfunction fillSpecTypes() {\n\tif (specTypesFilled) return;\n\tspecTypesFilled = true;\n${SPEC_LOOPS}\n}`,
  );
  for (const r of reads) out = out.replace(r, `(fillSpecTypes(), ${r})`);
  return out;
}

export /**
 * The client's Protocol carries a codec per wire era, 2025-11-25 and 2026-07-28, each with that
 * era's message schemas. Which one an instance speaks is the version its connection negotiated,
 * which only the SDK's Client and Server write (a module-private setter called in their
 * handshakes); until then everything an instance sends and receives goes through the 2025 codec,
 * and a message classified as 2026 is refused as an era mismatch. The App is a Protocol that
 * never negotiates an MCP version (its handshake is ui/initialize), so it speaks 2025 for its
 * whole life; the one other way into the 2026 codec is sending `server/discover`, which the App
 * never sends. So of the 2026 codec only what the 2025 side asks of it stays (its name and which
 * methods it defines, so a 2026-only method is still known as a spec method), and every other
 * member fails loudly, saying why; its schemas are then left out. The 2025 codec, which
 * validates what the host sends, is untouched. The build checks the facts this rests on (here:
 * the App sets no version and sends no server/discover; in buildViews: no Client or Server is
 * bundled) and fails rather than change a view unseen.
 */
const KEPT_2026 = new Set(['era', 'hasRequestMethod', 'hasNotificationMethod']);
export function legacyEraOnly(source: string, file: string): string {
  if (/ext-apps\/dist\/src\/app\.js$/.test(file) && /_negotiatedProtocolVersion|server\/discover|writeNegotiated/.test(source))
    throw new Error(`${file}: the App may negotiate an MCP version now; look again at legacyEraOnly`);
  if (!source.includes('const rev2026Codec = {')) return source;
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const st = sf.statements.find(
    (s): s is ts.VariableStatement =>
      ts.isVariableStatement(s) && s.declarationList.declarations.some((d) => ts.isIdentifier(d.name) && d.name.text === 'rev2026Codec'),
  );
  const codec = st?.declarationList.declarations.length === 1 ? st.declarationList.declarations[0]!.initializer : undefined;
  if (!codec || !ts.isObjectLiteralExpression(codec))
    throw new Error(`${file}: the 2026 codec is not built as this script expects; look again at legacyEraOnly`);
  const members = codec.properties.map((m) => {
    const name = m.name && (ts.isIdentifier(m.name) || ts.isStringLiteral(m.name)) ? m.name.text : undefined;
    if (name === undefined || ts.isSpreadAssignment(m)) throw new Error(`${file}: a 2026 codec member this script cannot name; look again at legacyEraOnly`);
    return KEPT_2026.has(name) ? m.getText(sf) : `${name}: unbuilt2026`;
  });
  if (members.filter((m) => !m.endsWith('unbuilt2026')).length !== KEPT_2026.size)
    throw new Error(`${file}: the 2026 codec lacks what the 2025 side asks of it; look again at legacyEraOnly`);
  const stub = `function unbuilt2026() {\n\tthrow new Error("The 2026-07-28 wire era is not built into this view: the App speaks 2025-11-25 (scripts/build-views.ts)");\n}\n`;
  return `${source.slice(0, st!.getStart(sf))}${stub}const rev2026Codec = {\n\t${members.join(',\n\t')}\n};${source.slice(st!.end)}`;
}

/**
 * `.describe("…")` on a zod schema stores its words for JSON Schema output, which a view does
 * not build (noJsonSchema); it checks nothing. The SDK's schemas carry a few hundred of them,
 * prose for people reading a generated schema; each call with a literal is left out here, the
 * schema it was called on standing where it stood.
 */
export function noDescriptions(source: string, file: string): string {
  if (!source.includes('.describe(')) return source;
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const cuts: [number, number][] = [];
  const visit = (n: ts.Node): void => {
    if (
      ts.isCallExpression(n) &&
      ts.isPropertyAccessExpression(n.expression) &&
      n.expression.name.text === 'describe' &&
      n.arguments.length === 1 &&
      (ts.isStringLiteral(n.arguments[0]!) || ts.isNoSubstitutionTemplateLiteral(n.arguments[0]!))
    )
      cuts.push([n.expression.expression.end, n.end]);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  let out = source;
  for (const [from, to] of cuts.sort((a, b) => b[0] - a[0])) out = out.slice(0, from) + out.slice(to);
  return out;
}

const pure: esbuild.Plugin = {
  name: 'pure-top-level',
  setup(b) {
    b.onLoad({ filter: PURE_PACKAGES }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      recordFormatCalls(source);
      return {
        contents: pureTopLevel(noDescriptions(legacyEraOnly(deferSpecRegistries(zodNamespace(source), args.path), args.path), args.path), args.path)
          .replace(/^for \(const .*register\(key, schema.*$/gm, '')
          .replace(/^for \(const key of SPEC_SCHEMA_KEYS\).*$/gm, ''),
        loader: 'js',
      };
    });
  },
};

/**
 * zod's classic schemas reach util.js as `import { util } from "../core/index.js"` (a namespace
 * re-exported by name), which esbuild cannot follow name by name: it builds the whole namespace
 * as an object and keeps every function util.js has. The same namespace imported directly
 * (`import * as util from "../core/util.js"`, as zod's own core files do) is followed per name.
 *
 * Its objects are built as `$ZodObjectJIT`: a `$ZodObject` that, where the page allows `eval`,
 * compiles a faster parser with `new Function`, and otherwise parses as `$ZodObject` does. A
 * view's CSP allows no eval (and the host's frame none either), so the compiler never runs there
 * but its probe does, reported as a CSP violation; the object is built as the `$ZodObject` it
 * would parse as anyway. And each schema's hook for JSON Schema output (`processJSONSchema`),
 * read only by the converters a view does not build (noJsonSchema), is left out.
 */
/** Each classic schema's hook for JSON Schema output, read only by the converters noJsonSchema leaves out. */
const JSON_SCHEMA_HOOK = /^ {4}inst\._zod\.processJSONSchema = \(ctx, json, params\) => processors\.\w+\(inst, ctx, json, params\);\n/gm;
const ZOD_CLASSIC = /node_modules\/zod\/v4\/classic\/schemas\.js$/;

/**
 * zod's string schema carries a method per string format (`.email()`, `.uuid()`, `.ipv6()`, …,
 * 26 of them) on its prototype, so every format's schema class, checker and regex stays in any
 * bundle that makes a string, called or not. The SDK's schemas call one, `.url()` (its dates are
 * `z.iso.datetime()`, a function of its own, untouched). Every other format method is built as
 * one that fails loudly, saying why; so no schema's checks change, and what the host sends is
 * validated exactly as before. The build checks the fact: it fails if a view's script calls a
 * format method left out (STRING_FORMATS_CALLED is then the place to add it).
 */
export const STRING_FORMATS_CALLED = new Set(['url']);
export function calledStringFormats(source: string, file: string): { source: string; left: string[] } {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const st = sf.statements.find(
    (s): s is ts.VariableStatement =>
      ts.isVariableStatement(s) && s.declarationList.declarations.some((d) => ts.isIdentifier(d.name) && d.name.text === 'ZodString'),
  );
  const call = st?.declarationList.declarations[0]?.initializer;
  const formats = call && ts.isCallExpression(call) ? call.arguments[2] : undefined;
  if (!formats || !ts.isObjectLiteralExpression(formats) || formats.properties.length < 20)
    throw new Error(`${file}: zod's string formats are not built as this script expects; look again at calledStringFormats`);
  const left: string[] = [];
  const members = formats.properties.map((m) => {
    const name = m.name && ts.isIdentifier(m.name) ? m.name.text : undefined;
    if (!name || !ts.isMethodDeclaration(m) || !/^\s*\{\s*return this\.check\(core\._\w+\(Zod\w+, params\)\);\s*\}$/.test(m.body?.getText(sf) ?? ''))
      throw new Error(`${file}: a string format this script cannot read (${name ?? '?'}); look again at calledStringFormats`);
    if (STRING_FORMATS_CALLED.has(name)) return m.getText(sf);
    left.push(name);
    return `${name}: unbuiltFormat`;
  });
  const stub = `const unbuiltFormat = () => {\n    throw new Error("This string format is not built into this view (scripts/build-views.ts)");\n};\n`;
  return {
    source: `${source.slice(0, st!.getStart(sf))}${stub}${source.slice(st!.getStart(sf), formats.getStart(sf))}{\n    ${members.join(',\n    ')}\n}${source.slice(formats.end)}`,
    left,
  };
}
/** The format methods calledStringFormats left out, as the last build found them (checked against each script). */
let formatsLeftOut: string[] = [];
/**
 * Which format methods the SDK's files call on a schema, as the pure plugin loads them: any
 * `.<format>(` but on `z` or `iso` (zod's own functions, `z.url()`, `z.iso.datetime()`, which
 * stay as they are). A call this cannot tell from a method's counts as one: the build fails.
 */
const formatsCalled = new Set<string>();
const recordFormatCalls = (source: string) => {
  for (const m of source.matchAll(/(?:([\w$]+)\s*)?\.\s*([\w$]+)\s*\(/g)) if (m[1] !== 'z' && m[1] !== 'iso') formatsCalled.add(m[2]!);
};
const zodClassic: esbuild.Plugin = {
  name: 'zod-classic',
  setup(b) {
    b.onLoad({ filter: ZOD_CLASSIC }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const from = 'import { util } from "../core/index.js";';
      if (source.split(from).length !== 2) throw new Error(`${args.path}: zod's util import is not as this script expects; look again at zodClassic`);
      const jit = 'core.$ZodObjectJIT.init(inst, def);';
      if (source.split(jit).length !== 2) throw new Error(`${args.path}: zod's object is not built as this script expects; look again at zodClassic`);
      const formats = calledStringFormats(source, args.path);
      formatsLeftOut = formats.left;
      return {
        contents: formats.source
          .replace(from, 'import * as util from "../core/util.js";')
          .replaceAll('core.util.', 'util.')
          .replace(jit, 'core.$ZodObject.init(inst, def);')
          .replace(JSON_SCHEMA_HOOK, ''),
        loader: 'js',
      };
    });
  },
};

/**
 * zod's classic schemas carry JSON Schema output (`toJSONSchema()`, `~standard.jsonSchema`), and
 * every schema built ties a converter to itself, so the converters stay in a bundle whether or
 * not anything converts. A view never does: it validates what the host sends and sends JSON; the
 * one path that would (the App's own tools, `registerTool`, listed for the host) no view uses.
 * So the two converter modules are built as modules with the same exports, each failing loudly
 * when called, saying why; validation (`parse`, `safeParse`, `~standard.validate`) is untouched.
 */
const JSON_SCHEMA_MODULES = /node_modules\/zod\/v4\/core\/(to-json-schema|json-schema-processors)\.js$/;
const noJsonSchema: esbuild.Plugin = {
  name: 'no-json-schema',
  setup(b) {
    b.onLoad({ filter: JSON_SCHEMA_MODULES }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const names = [...source.matchAll(/^export (?:const|function) ([\w$]+)/gm)].map((m) => m[1]!);
      const renamed = [...source.matchAll(/^export \{ ([\w$]+) as ([\w$]+) \};$/gm)].map((m) => m[2]!);
      if (names.length === 0) throw new Error(`${args.path}: no exports found; look again at noJsonSchema`);
      const fail = `() => { throw new Error("JSON Schema output is not built into this view (scripts/build-views.ts)"); }`;
      return {
        contents: [
          `const unbuilt = ${fail};`,
          ...[...names, ...renamed].map((n) => `export const ${n} = ${/^create/.test(n) ? '() => unbuilt' : 'unbuilt'};`),
        ].join('\n'),
        loader: 'js',
      };
    });
  },
};

/**
 * Our domain modules build nothing at their top level that a view needs unless it imports a name
 * from them (only addresses.ts runs a statement there, and no view reaches it), but esbuild keeps
 * a module's top-level values whenever it cannot prove them free, e.g. a `new RegExp` or an
 * object with computed keys, even when nothing imports them. A view reaches the words and
 * formatting it uses through chains (booking-pages.ts → holds.ts → customer.ts → words/input.ts
 * → plain-text.ts) whose far ends it never uses; marking the domain's files as free of side
 * effects for this build lets esbuild leave out a module none of whose names a view uses.
 */
const DOMAIN = path.join(projectRoot, 'packages', 'domain', 'src') + path.sep;
const domainPure: esbuild.Plugin = {
  name: 'domain-pure',
  setup(b) {
    b.onResolve({ filter: /^\./ }, async (args) => {
      if (args.pluginData === DOMAIN || !args.importer.startsWith(projectRoot) || args.importer.includes(`${path.sep}node_modules${path.sep}`))
        return undefined;
      const r = await b.resolve(args.path, { resolveDir: args.resolveDir, kind: args.kind, importer: args.importer, pluginData: DOMAIN });
      return r.errors.length === 0 && r.path.startsWith(DOMAIN) ? { path: r.path, sideEffects: false } : undefined;
    });
  },
};

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
/** The views' one stylesheet, minified (its comments are for us, not for every document). */
const css = esbuild.transformSync(readFileSync(path.join(projectRoot, 'views/style.css'), 'utf8'), { loader: 'css', minify: true }).code.trim();

/** What went into a view's script from the official App and its dependencies (the MCP SDK, zod). */
const SDK = /node_modules\/(@modelcontextprotocol\/|zod\/|@standard-schema\/)/;

export interface BuiltView {
  file: string;
  bytes: number;
  /** Of its script, the bytes that came from the official App and its dependencies. */
  sdkBytes: number;
}

/**
 * Builds every view; fails naming each document over VIEW_MAX_BYTES. With `analyze`, prints
 * what each script is made of (esbuild's analysis) and writes its metafile to meta-<view>.json in the system's temporary folder.
 */
export async function buildViews(analyze = false): Promise<BuiltView[]> {
  const built: BuiltView[] = [];
  for (const v of VIEWS) {
    formatsCalled.clear();
    const out = await esbuild.build({
      entryPoints: [path.join(projectRoot, 'views', `${v.name}.ts`)],
      bundle: true,
      minify: true,
      format: 'iife',
      platform: 'browser',
      target: 'es2022',
      write: false,
      legalComments: 'none',
      charset: 'utf8',
      plugins: [lean, pure, zodClassic, noJsonSchema, domainPure],
      logLevel: 'error',
      metafile: true,
    });
    if (analyze) {
      console.log(await esbuild.analyzeMetafile(out.metafile, { verbose: false }));
      writeFileSync(path.join(tmpdir(), `meta-${v.name}.json`), JSON.stringify(out.metafile));
    }
    const script = out.outputFiles[0]!.text.replace(/<\/script/gi, '<\\/script').trim();
    // legacyEraOnly rests on this: property names survive minifying, and the one assignment of
    // the negotiated version in a view must be the Protocol's own (module-private, never called).
    if (script.split(/\._negotiatedProtocolVersion=(?!=)/).length !== 2)
      throw new Error(`${v.name}: something in this view sets the negotiated MCP version; the 2026 codec it would need is not built (legacyEraOnly)`);
    const calls = formatsLeftOut.filter((f) => formatsCalled.has(f));
    if (calls.length > 0) throw new Error(`${v.name}: the SDK calls string formats left out of zod (${calls.join(', ')}); add them to STRING_FORMATS_CALLED`);
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
    const sdkBytes = Object.entries(Object.values(out.metafile.outputs)[0]!.inputs)
      .filter(([input]) => SDK.test(input))
      .reduce((sum, [, i]) => sum + i.bytesInOutput, 0);
    built.push({ file: path.relative(projectRoot, file), bytes: Buffer.byteLength(doc), sdkBytes });
  }
  const over = built.filter((b) => b.bytes > VIEW_MAX_BYTES);
  if (over.length > 0)
    throw new Error(
      `views over ${VIEW_MAX_BYTES} bytes (VIEW_MAX_BYTES): ${over.map((b) => `${b.file} is ${b.bytes}`).join('; ')}. Run tsx scripts/build-views.ts --analyze to see what they hold.`,
    );
  return built;
}

if (process.argv[1]?.endsWith('build-views.ts')) {
  buildViews(process.argv.includes('--analyze')).then(
    (built) => {
      for (const b of built) console.log(`${b.file}: ${b.bytes} bytes of at most ${VIEW_MAX_BYTES} (the official App and its dependencies: ${b.sdkBytes})`);
    },
    (err: Error) => {
      console.error(err.message);
      process.exitCode = 1;
    },
  );
}
