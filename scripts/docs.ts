import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { formattedReference } from './reference';

/** `pnpm reference`: writes docs/operations.md from the operation registries. */
const path = resolve(__dirname, '..', 'docs', 'operations.md');
writeFileSync(path, formattedReference(path));
process.stdout.write('docs/operations.md written\n');
