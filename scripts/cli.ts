import { AppError } from '@frontdesk/domain';
import { keyCreate, demo, migrate, oauthRotateKey } from './cli/access';
import { RefusedError, UsageError } from './cli/context';
import { backup, restore } from './cli/backup';
import { crewAdd, crewList, crewRemove, crewUpdate } from './cli/crews';
import { HELP } from './cli/help';
import { readArgs, type Run } from './cli/options';
import { proCheck, proCreate, proRotateKey, proSet } from './cli/pro';
import { timeOffAdd, timeOffList, timeOffRemove } from './cli/time-off';

/** Every command by its words, each in the module of its area (scripts/cli/). */
const COMMANDS: Record<string, Run> = {
  migrate,
  'pro create': proCreate,
  'pro rotate-key': proRotateKey,
  'pro set': proSet,
  'pro time-off add': timeOffAdd,
  'pro time-off remove': timeOffRemove,
  'pro time-off list': timeOffList,
  'crew list': crewList,
  'crew add': crewAdd,
  'crew update': crewUpdate,
  'crew remove': crewRemove,
  'pro check': proCheck,
  'key create': keyCreate,
  'oauth rotate-key': oauthRotateKey,
  demo,
  backup,
  restore,
};

/** Commands followed by operands (`backup <file>`); every other command is all of its words. */
const WITH_OPERANDS = new Set(['backup', 'restore']);

/** A crew operation's refusal, naming this CLI's flags where it names an operation's field. */
const inCliWords = (message: string) =>
  message
    .replace(/\breassign_to\b/g, '--reassign-to')
    .replace(/\bwith update_crew\b/g, 'with crew update --active yes')
    .replace(/\bmove them with assign_job first\b/, 'give them to other crews on the dashboard first')
    .replace(/; my_business lists the crews\./, '; crew list shows them.');

async function run(argv: string[]): Promise<void> {
  const { values, positionals } = readArgs(argv);
  const operands = WITH_OPERANDS.has(positionals[0] ?? '') ? positionals.splice(1) : [];
  const command = positionals.join(' ');
  if (values.help || command === '' || command === 'help') {
    process.stdout.write(`${HELP}\n`);
    return;
  }
  const runCommand = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!runCommand) throw new UsageError(`Unknown command "${command}".`);
  await runCommand({ values, json: values.json ?? false, positionals: operands });
}

run(process.argv.slice(2)).then(
  () => process.exit(0),
  (err: unknown) => {
    if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`${(err as Error).message}\nRun "pnpm cli --help" for usage.\n`);
      process.exit(2);
    }
    const message =
      err instanceof AppError
        ? inCliWords(err.message)
        : err instanceof RefusedError
          ? err.message
          : (err as { code?: string }).code === '42P01'
            ? 'The database has no Front Desk schema yet: run "pnpm cli migrate" first.'
            : `Failed: ${err instanceof Error ? err.message : String(err)}`;
    process.stderr.write(`${message}\n`);
    process.exit(1);
  },
);
