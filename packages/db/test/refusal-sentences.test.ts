import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/**
 * Every sentence a person reads lives in packages/domain/src/words/, where it is written
 * once and unit-tested. A `new …Error(` whose first argument is a literal with a space in
 * it is a sentence written where it is thrown; this test finds those everywhere else.
 * Parsing with TypeScript (not a regular expression) sees a literal that starts on the next
 * line, nested template literals, and skips comments.
 */
const ROOT = join(__dirname, '..', '..', '..');
const WORDS = 'packages/domain/src/words/';

/** Where a literal sentence may still be thrown, and why. A `sentence` narrows an entry to the literals that start with it. */
const ALLOWED: { path: string; sentence?: string; reason: string }[] = [
  {
    path: 'packages/config/src/',
    reason:
      "operator-facing start-up sentences naming an environment variable, and its `new Error('not http')` control flow; config imports nothing of ours, the domain included",
  },
  {
    path: 'packages/db/src/',
    reason:
      'plain Errors of provisioning, migration, embedded PostgreSQL and test setup: read by an operator or a developer, shown to no caller (a 500 says nothing)',
  },
  {
    path: 'packages/http/src/server.ts',
    sentence: 'Port ',
    reason: 'an operator-facing start-up sentence naming the variable that sets the port, as packages/config does',
  },
  {
    path: 'packages/http/src/output.ts',
    sentence: 'The answer of ',
    reason: 'a developer-facing mismatch between an answer and its declared schema: logged, and the caller gets a 500 that says nothing',
  },
  {
    path: 'packages/domain/src/time.ts',
    sentence: 'no wall time after ',
    reason: 'an invariant (some wall time follows any other within a day), shown to no caller',
  },
  {
    path: 'packages/oauth/src/keys.ts',
    sentence: 'No active signing key.',
    reason: 'an invariant: the key store always holds a key that signs; a 500 says nothing',
  },
  {
    path: 'packages/oauth/src/keys.ts',
    sentence: 'unknown key',
    reason: 'control flow inside verify(), whose callers turn any failure into a refusal of their own',
  },
  { path: 'packages/oauth/src/keys.ts', sentence: 'malformed claims', reason: 'control flow inside verify(), as above' },
  {
    path: 'packages/oauth/src/sealing.ts',
    reason: 'operator-facing start-up sentences about the key-encryption key, naming its environment variable, as packages/config does',
  },
];

interface Sentence {
  line: number;
  text: string;
}

/** The literal first arguments of `new …Error(` in a source text whose static text holds a space. */
function literalSentences(source: string, fileName = 'sample.ts'): Sentence[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const found: Sentence[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isNewExpression(node) && /Error$/.test(node.expression.getText(file)) && node.arguments?.[0]) {
      const text = staticText(node.arguments[0]);
      if (text !== null && text.includes(' ')) found.push({ line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1, text });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** A literal's words without its `${…}` parts; null for anything that is not a literal. */
function staticText(arg: ts.Expression): string | null {
  if (ts.isStringLiteral(arg) || ts.isNoSubstitutionTemplateLiteral(arg)) return arg.text;
  if (ts.isTemplateExpression(arg)) return [arg.head.text, ...arg.templateSpans.map((s) => s.literal.text)].join('${}');
  return null;
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

// packages/dev-env is test support (its sentences are the tests' own), so it is left out.
const roots = ['packages', 'services'].flatMap((top) =>
  readdirSync(join(ROOT, top))
    .filter((name) => name !== 'dev-env')
    .map((name) => join(ROOT, top, name, 'src'))
    .filter((dir) => statSync(dir, { throwIfNoEntry: false })?.isDirectory()),
);

describe('literal sentences in errors', () => {
  const sites = roots
    .flatMap(sources)
    .map((path) => relative(ROOT, path).split('\\').join('/'))
    .flatMap((path) => literalSentences(readFileSync(join(ROOT, path), 'utf8'), path).map((s) => ({ path, ...s })));
  const allowedBy = (site: { path: string; text: string }) =>
    ALLOWED.find((a) => site.path.startsWith(a.path) && (a.sentence === undefined || site.text.startsWith(a.sentence)));

  it('reaches the sources: it finds the sentences words/ holds', () => {
    expect(sites.filter((s) => s.path.startsWith(WORDS)).length).toBeGreaterThan(30);
  });

  it('throws no literal sentence outside packages/domain/src/words/ but where the allow-list says why', () => {
    const offenders = sites.filter((s) => !s.path.startsWith(WORDS) && !allowedBy(s)).map((s) => `${s.path}:${s.line}: ${s.text}`);
    expect(offenders).toEqual([]);
  });

  it('keeps no allow-list entry that nothing needs', () => {
    const unused = ALLOWED.filter((a) => !sites.some((s) => allowedBy(s) === a)).map((a) => `${a.path} ${a.sentence ?? ''}`);
    expect(unused).toEqual([]);
  });
});

describe('the matcher', () => {
  it('catches a sentence in quotes, in a template, and on the next line', () => {
    const sample = [
      "throw new InvalidInputError('customer_name must not be blank.');",
      'throw new NotFoundError(`No booking with id ${id}.`);',
      'return new InvalidGrantError(',
      "  'The authorization code has expired.',",
      ');',
      'reject(new Error(`${cmd} failed (${code}): ${out}`));',
    ].join('\n');
    expect(literalSentences(sample)).toEqual([
      { line: 1, text: 'customer_name must not be blank.' },
      { line: 2, text: 'No booking with id ${}.' },
      { line: 3, text: 'The authorization code has expired.' },
      { line: 6, text: '${} failed (${}): ${}' },
    ]);
  });

  it('passes words from words/, one-word control flow, non-errors and comments', () => {
    const sample = [
      'throw noBooking(id);',
      'throw new InvalidGrantError(oauthWords.codeExpired());',
      "throw new Error('timeout');",
      'throw new InvalidClientError(err.message);',
      "const e = new Map([['a b', 1]]);",
      "// throw new InvalidInputError('a sentence in a comment');",
      "throw new ConfigError('DATABASE_URL', 'is not a valid URL.');",
    ].join('\n');
    expect(literalSentences(sample)).toEqual([]);
  });
});
