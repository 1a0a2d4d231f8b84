import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { AppError, NotFoundError } from '@frontdesk/domain';
import { readKeySealer, rotateSigningKey, withLocalKeyEncryptionKey } from '@frontdesk/oauth';
import { addProCheck, createDb, createPersonalKey, createPro, getPro, migrateToLatest, resolveDatabase, rotateProKey, type Db } from '@frontdesk/db';
import { loadDemoBusiness, presentCheck } from '@frontdesk/use-cases';

const HELP = `Front Desk ops CLI. Every command uses DATABASE_URL, or the project's embedded PostgreSQL when it is unset.

Usage:
  pnpm cli migrate
      Bring the schema to the latest migration (safe to run from several places at once).
  pnpm cli pro create --name <name> --timezone <IANA zone> --zips <zip,zip> [--phone <p>] [--email <e>] [--website <url>] [--json]
      Create a cleaning business with the default price list and hours. Prints its key once.
  pnpm cli pro rotate-key --pro <pro_id> [--json]
      Revoke every key of the business and print a new one, once.
  pnpm cli pro check --pro <pro_id> --kind website --subject <site> [--failed] [--date YYYY-MM-DD] [--json]
  pnpm cli pro check --pro <pro_id> --kind marketplace --subject <platform> [--rating 4.8] [--reviews 120] [--failed] [--date …]
      Record a best-effort check as seen that day (default today): website ownership, or a
      marketplace profile and its rating. find_cleaners shows the newest of each.
  pnpm cli key create --email <email> [--json]
      Issue a customer's personal key for the booking service. Prints it once.
  pnpm cli oauth rotate-key [--json]
      Sign new access tokens with a new key; the old one keeps verifying until its tokens expire.
  pnpm cli demo [--json]
      Load the demo business (or give it a fresh key if it is there) and print its key.
  pnpm cli --help

With --json a command prints one JSON object (pro create: pro_id, name, api_key; key create: key).
Exit codes: 0 done, 1 refused or failed (the reason is printed), 2 wrong usage.`;

class UsageError extends Error {}

async function withDb<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  const database = await resolveDatabase(process.env, resolve(__dirname, '..'));
  // An ops tool answers no request: no statement timeout, so a long migration runs to its end.
  const db = createDb(database.url, { maxConnections: 2, applicationName: 'front-desk-cli', statementTimeoutMs: 0 });
  try {
    // The project's own embedded database is brought up to date as `pnpm start` would;
    // a DATABASE_URL database is migrated only by `pnpm cli migrate`, when ops say so.
    if (!process.env.DATABASE_URL) await migrateToLatest(db);
    return await fn(db);
  } finally {
    await db.destroy();
    await database.stop();
  }
}

function print(json: boolean, object: Record<string, unknown>, text: string): void {
  process.stdout.write(json ? `${JSON.stringify(object)}\n` : `${text}\n`);
}

async function run(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      json: { type: 'boolean' },
      name: { type: 'string' },
      timezone: { type: 'string' },
      zips: { type: 'string' },
      phone: { type: 'string' },
      email: { type: 'string' },
      website: { type: 'string' },
      pro: { type: 'string' },
      kind: { type: 'string' },
      subject: { type: 'string' },
      failed: { type: 'boolean' },
      rating: { type: 'string' },
      reviews: { type: 'string' },
      date: { type: 'string' },
    },
  });
  const json = values.json ?? false;
  const command = positionals.join(' ');
  if (values.help || command === '' || command === 'help') {
    process.stdout.write(`${HELP}\n`);
    return;
  }
  switch (command) {
    case 'migrate': {
      const applied = await withDb((db) => migrateToLatest(db));
      print(json, { applied }, applied.length ? `Applied: ${applied.join(', ')}` : 'The schema is up to date.');
      return;
    }
    case 'pro create': {
      const missing = (['name', 'timezone', 'zips'] as const).filter((k) => !values[k]);
      if (missing.length) throw new UsageError(`pro create needs ${missing.map((m) => `--${m}`).join(', ')}.`);
      const { pro, apiKey } = await withDb((db) =>
        createPro(db, {
          name: values.name!,
          timezone: values.timezone!,
          service_zips: values
            .zips!.split(',')
            .map((z) => z.trim())
            .filter(Boolean),
          phone: values.phone ?? null,
          email: values.email ?? null,
          website: values.website ?? null,
        }),
      );
      print(
        json,
        { pro_id: pro.id, name: pro.name, timezone: pro.timezone, service_zips: pro.service_zips, api_key: apiKey },
        `Created ${pro.name} (${pro.id}).\nAPI key (shown once, store it now): ${apiKey}`,
      );
      return;
    }
    case 'pro rotate-key': {
      if (!values.pro) throw new UsageError('pro rotate-key needs --pro <pro_id>.');
      const key = await withDb((db) => rotateProKey(db, values.pro!));
      if (!key) throw new NotFoundError(`No business with id ${values.pro}.`);
      print(json, { pro_id: values.pro, api_key: key }, `New API key for ${values.pro} (shown once; the old keys stop working now): ${key}`);
      return;
    }
    case 'pro check': {
      const kinds = { website: 'website_ownership', marketplace: 'marketplace_profile' } as const;
      if (!values.pro || !values.kind || !values.subject) throw new UsageError('pro check needs --pro, --kind (website or marketplace) and --subject.');
      const kind = kinds[values.kind as keyof typeof kinds];
      if (!kind) throw new UsageError('--kind must be website or marketplace.');
      const num = (v: string | undefined, name: string) => {
        if (v === undefined) return null;
        const n = Number(v);
        if (!Number.isFinite(n)) throw new UsageError(`--${name} must be a number.`);
        return n;
      };
      const check = await withDb(async (db) => {
        if (!(await getPro(db, values.pro!))) throw new NotFoundError(`No business with id ${values.pro}.`);
        return addProCheck(db, {
          proId: values.pro!,
          kind,
          subject: values.subject!,
          passed: !values.failed,
          rating: num(values.rating, 'rating'),
          reviews: num(values.reviews, 'reviews'),
          checkedOn: values.date ?? new Date().toISOString().slice(0, 10),
        });
      });
      const shown = presentCheck(check);
      print(json, { pro_id: values.pro, ...shown }, `Recorded: ${shown.summary}`);
      return;
    }
    case 'key create': {
      if (!values.email) throw new UsageError('key create needs --email <email>.');
      const { key, record } = await withDb((db) => createPersonalKey(db, values.email!));
      print(json, { key, email: record.email, key_id: record.id }, `Personal key for ${record.email} (shown once, store it now): ${key}`);
      return;
    }
    case 'oauth rotate-key': {
      // Sealed with KEY_ENCRYPTION_KEY, or for a local run the key in the data folder, as pnpm start uses it.
      const sealer = readKeySealer(withLocalKeyEncryptionKey(process.env, resolve(__dirname, '..')));
      const kid = await withDb((db) => rotateSigningKey(db, sealer));
      print(json, { kid }, `New signing key ${kid}. Replicas pick it up within a minute; tokens signed with the old key stay valid until they expire.`);
      return;
    }
    case 'demo': {
      const { pro, apiKey, created } = await withDb((db) => loadDemoBusiness(db));
      print(
        json,
        { pro_id: pro.id, name: pro.name, api_key: apiKey, created },
        `${created ? 'Loaded' : 'Refreshed the key of'} ${pro.name} (${pro.id}).\nAPI key: ${apiKey}`,
      );
      return;
    }
    default:
      throw new UsageError(`Unknown command "${command}".`);
  }
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
        ? err.message
        : (err as { code?: string }).code === '42P01'
          ? 'The database has no Front Desk schema yet: run "pnpm cli migrate" first.'
          : `Failed: ${err instanceof Error ? err.message : String(err)}`;
    process.stderr.write(`${message}\n`);
    process.exit(1);
  },
);
