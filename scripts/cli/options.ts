import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Command } from './context';

/** Every flag any command takes; a command refuses the ones it needs and does not find. */
const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  json: { type: 'boolean' },
  name: { type: 'string' },
  timezone: { type: 'string' },
  zips: { type: 'string' },
  phone: { type: 'string' },
  email: { type: 'string' },
  owner: { type: 'string' },
  website: { type: 'string' },
  pro: { type: 'string' },
  kind: { type: 'string' },
  subject: { type: 'string' },
  failed: { type: 'boolean' },
  rating: { type: 'string' },
  reviews: { type: 'string' },
  date: { type: 'string' },
  hours: { type: 'string', multiple: true },
  price: { type: 'string', multiple: true },
  discount: { type: 'string', multiple: true },
  'travel-buffer': { type: 'string' },
  'slot-step': { type: 'string' },
  'min-notice-hours': { type: 'string' },
  change: { type: 'string' },
  start: { type: 'string' },
  end: { type: 'string' },
  note: { type: 'string' },
  id: { type: 'string' },
  crew: { type: 'string' },
  'business-hours': { type: 'boolean' },
  active: { type: 'string' },
  'reassign-to': { type: 'string' },
  replace: { type: 'boolean' },
} satisfies ParseArgsConfig['options'];

/** The command line read: the command's words, and its flags. */
export const readArgs = (argv: string[]) => parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });

/** The flags as a command reads them. */
export type Values = ReturnType<typeof readArgs>['values'];
export type Run = (c: Command<Values>) => Promise<void>;
