import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The repository's root (where pnpm-workspace.yaml is, and the data folder beside it). The
 * CLI runs from scripts/ under tsx and from scripts/dist/ once compiled into the image, so
 * a fixed number of `..` would be right in one of the two only.
 */
export function projectRoot(from: string = __dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'pnpm-workspace.yaml'))) return dir;
    if (dirname(dir) === dir) return process.cwd();
  }
}
