import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { formattedReference } from './reference';
import { formattedConfiguration } from './configuration';

/** `pnpm reference`: writes the generated documents, docs/operations.md (the operation registries) and docs/configuration.md (the settings catalogue). */
for (const [file, render] of [
  ['operations.md', formattedReference],
  ['configuration.md', formattedConfiguration],
] as const) {
  const path = resolve(__dirname, '..', 'docs', file);
  writeFileSync(path, render(path));
  process.stdout.write(`docs/${file} written\n`);
}
