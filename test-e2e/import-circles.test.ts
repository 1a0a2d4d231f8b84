import ts from 'typescript';
import { readFileSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * No import circle in any package's or service's source: a module never reaches itself through
 * what it imports (type-only imports included), so each module can be read, tested and moved
 * after what it stands on. Imports are resolved as the compiler resolves them (tsconfig.json):
 * relative paths and the packages' names alike.
 */
const ROOT = join(__dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
  });
}

const srcDirs = ['packages', 'services'].flatMap((top) =>
  readdirSync(join(ROOT, top))
    .map((name) => join(ROOT, top, name, 'src'))
    .filter((dir) => statSync(dir, { throwIfNoEntry: false })?.isDirectory()),
);

const { config } = ts.readConfigFile(join(ROOT, 'tsconfig.json'), (path) => ts.sys.readFile(path));
const { options } = ts.parseJsonConfigFileContent(config, ts.sys, ROOT);

/** Each source file (by its real path) and the source files of packages/ and services/ it imports. */
function importGraph(files: string[]): Map<string, string[]> {
  const ours = new Set(files);
  return new Map(
    files.map((file) => {
      const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
      const targets = importedFiles
        .map((i) => ts.resolveModuleName(i.fileName, file, options, ts.sys).resolvedModule?.resolvedFileName)
        .filter((path): path is string => path !== undefined)
        .map((path) => realpathSync(path))
        .filter((path) => ours.has(path));
      return [file, [...new Set(targets)]];
    }),
  );
}

/** Every circle of the graph, one per strongly connected set of modules, as the path from its first module back to it. */
function circlesOf(graph: Map<string, string[]>): string[][] {
  // Tarjan's strongly connected components, then a shortest way round each one.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const members = new Set<string>();
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      members.add(w);
    } while (w !== v);
    if (members.size > 1 || (graph.get(v) ?? []).includes(v)) circles.push(wayRound(graph, v, members));
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return circles;
}

/** The shortest path from `start` back to itself within `members`. */
function wayRound(graph: Map<string, string[]>, start: string, members: Set<string>): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!members.has(w) || cameFrom.has(w)) continue;
      cameFrom.set(w, v);
      if (w === start) {
        const path = [start];
        for (let at = cameFrom.get(start)!; at !== start; at = cameFrom.get(at)!) path.unshift(at);
        return [start, ...path];
      }
      queue.push(w);
    }
  }
  return [start, start];
}

describe('import circles', () => {
  it('are found, however long', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
      ['e', ['e']],
    ]);
    expect(circlesOf(graph)).toEqual(
      expect.arrayContaining([
        ['a', 'b', 'c', 'a'],
        ['e', 'e'],
      ]),
    );
    expect(circlesOf(graph)).toHaveLength(2);
  });

  it('there are none in packages/*/src and services/*/src', () => {
    const graph = importGraph(srcDirs.flatMap(sources).map((path) => realpathSync(path)));
    // The graph is read: relative imports and the packages' names resolve to their files.
    const edges = [...graph.values()].flat();
    expect(edges.length).toBeGreaterThan(graph.size);
    expect(edges).toContain(realpathSync(join(ROOT, 'packages/domain/src/index.ts')));
    const said = circlesOf(graph).map((circle) => circle.map((path) => relative(ROOT, path)).join(' → '));
    expect(said).toEqual([]);
  });
});
