import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formattedReference } from '../scripts/reference';

// docs/operations.md is generated from the operation registries: a change to an operation
// that is not followed by `pnpm reference` fails here, so the reference never goes stale.
describe('docs/operations.md', () => {
  const path = join(__dirname, '..', 'docs', 'operations.md');

  it('is what the operation registries generate now', () => {
    expect(readFileSync(path, 'utf8')).toBe(formattedReference(path));
  });

  it('names every operation of both hosts', () => {
    const text = readFileSync(path, 'utf8');
    const named = [...text.matchAll(/^### (\w+)$/gm)].map((m) => m[1]);
    expect(named).toHaveLength(34);
    expect(named).toEqual(expect.arrayContaining(['book_job', 'log_lead', 'find_cleaners', 'book_cleaning', 'cancel_booking', 'pipeline']));
  });
});
