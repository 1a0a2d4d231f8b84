/** Node's fs plus globSync (as Node 22 has it), for the conformance CLI on Node 20. */
import fs from 'node:fs';
import path from 'node:path';

export * from 'node:fs';
export default fs;

export function globSync(pattern, options = {}) {
  const patterns = Array.isArray(pattern) ? pattern : [pattern];
  const cwd = options.cwd ? String(options.cwd) : process.cwd();
  const found = [];
  const walk = (dir) => {
    let entries = [];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      const relative = path.relative(cwd, full);
      if (patterns.some((p) => path.matchesGlob(path.isAbsolute(p) ? full : relative, p))) found.push(path.isAbsolute(patterns[0]) ? full : relative);
      if (entry.isDirectory() && entry.name !== 'node_modules') walk(full);
    }
  };
  walk(cwd);
  return found;
}
