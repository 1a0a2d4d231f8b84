import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formattedReference } from '../scripts/reference';
import { DEFAULT_PRICE_LIST } from '@frontdesk/domain';

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

// README's first minutes: what a newcomer needs beside the two commands is true and near them.
describe('README.md', () => {
  const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
  const commands = readme.slice(readme.indexOf('## The two commands'), readme.indexOf('## Your first hour'));

  it('says how to run on other ports next to the two commands', () => {
    for (const name of ['PRO_DESK_PORT', 'BOOKING_PORT', 'EMBEDDED_PG_PORT']) expect(commands).toContain(name);
    expect(commands).toMatch(/8080[\s\S]*8081[\s\S]*54329/);
  });

  it("gives a new business's default prices as the default price list has them, the pets fee included", () => {
    const usd = (cents: number) => String(cents / 100);
    const p = DEFAULT_PRICE_LIST;
    const said = `(${usd(p.base_cents)} USD base, ${usd(p.per_bedroom_cents)} per bedroom, ${usd(p.per_bathroom_cents)} per bathroom,\n   ${usd(p.pets_fee_cents)} for pets, ${usd(p.minimum_cents)} minimum)`;
    expect(readme).toContain(`You start with the default price list ${said}`);
  });
});
