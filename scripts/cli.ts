import { parseArgs } from 'node:util';
import { AppError, NotFoundError, WEEKDAYS, fields, settingsChangeSchema } from '@frontdesk/domain';
import { flatten, readDevDatabase, readKeyEncryptionKeys, readPort, readUrl, withLocalKeyEncryptionKey } from '@frontdesk/config';
import { validateInput } from '@frontdesk/http';
import { crewChangeFields, presentBusiness, presentCrew } from '@frontdesk/pro-desk';
import { keySealerFrom, rotateSigningKey } from '@frontdesk/oauth';
import { createDb, getPro, migrateToLatest, resolveDatabase, upcomingTimeOff, type Crew, type Db, type Pro } from '@frontdesk/db';
import {
  addCrew,
  addTimeOff,
  changeBusinessOwner,
  createOwnedBusiness,
  issuePersonalKey,
  listCrews,
  loadDemoBusiness,
  resealWebhookSecrets,
  presentCheck,
  presentTimeOff,
  recordCheck,
  removeCrew,
  removeTimeOff,
  rotateBusinessKey,
  updateBusinessSettings,
  updateCrew,
  type CrewUpdate,
} from '@frontdesk/use-cases';
import { projectRoot } from './project-root';

const HELP = `Front Desk ops CLI. Every command uses DATABASE_URL, or the project's embedded PostgreSQL when it is unset.

Usage:
  pnpm cli migrate
      Bring the schema to the latest migration (safe to run from several places at once).
  pnpm cli pro create --name <name> --timezone <IANA zone> --zips <zip,zip> [--phone <p>] [--email <e>] [--owner <e>] [--website <url>] [--json]
      Create a cleaning business with the default price list and hours. Prints its key once.
      --email is the business's contact address and, unless --owner names another, its owner's: the
      address that signs in on the dashboard (one business per owner address).
  pnpm cli pro rotate-key --pro <pro_id> [--json]
      Revoke every key of the business and print a new one, once.
  pnpm cli pro set --pro <pro_id> [--name <n>] [--phone <p>] [--email <e>] [--owner <e>] [--website <url>] [--zips <zip,zip>]
                  [--hours <day>=closed|<day>=HH:MM-HH:MM[,HH:MM-HH:MM]]… [--price <name>=<USD>]… [--discount <frequency>=<pct>]…
                  [--travel-buffer <min>] [--slot-step <min>] [--min-notice-hours <h>] [--change '<update_business JSON>'] [--json]
      Change the business's settings, as update_business does (same checks; an empty value such as --phone '' removes it).
      --email changes only the contact address; --owner changes the address that signs in on the dashboard
      (its open dashboard sessions end; --owner '' leaves the business without one).
      --price names: base, per_bedroom, per_bathroom, minimum, pets_fee, crew_size. --change takes any other part
      (add_ons, clean_types, larger_home_surcharge) in the shape my_business shows. Lists booked jobs the change affects.
  pnpm cli pro time-off add --pro <pro_id> --start <YYYY-MM-DD|ISO> --end <YYYY-MM-DD|ISO> [--note <text>] [--json]
  pnpm cli pro time-off remove --pro <pro_id> --id <time_off_id> [--json]
  pnpm cli pro time-off list --pro <pro_id> [--json]
      Time off: whole local days by date (start and end included), or exact ISO 8601 times.
  pnpm cli crew list --pro <pro_id> [--json]
  pnpm cli crew add --pro <pro_id> --name <name> [--hours <day>=closed|<day>=HH:MM-HH:MM[,…]]… [--json]
  pnpm cli crew update --pro <pro_id> --crew <crew_id> [--name <name>] [--hours …]… [--business-hours] [--active yes|no] [--json]
  pnpm cli crew remove --pro <pro_id> --crew <crew_id> [--reassign-to <crew_id>] [--json]
      A business's crews, as add_crew, update_crew and remove_crew do them (same checks). A crew works
      the business's hours until --hours gives it its own (days not named keep theirs); --business-hours
      puts it back on the business's. --active no: it takes no new jobs. A crew with upcoming jobs is
      removed only with --reassign-to another crew free at every one of them (all move, or nothing does).
  pnpm cli pro check --pro <pro_id> --kind website --subject <site> [--failed] [--date YYYY-MM-DD] [--json]
  pnpm cli pro check --pro <pro_id> --kind marketplace --subject <platform> [--rating 4.8] [--reviews 120] [--failed] [--date …]
      Record a best-effort check as seen that day (default today): website ownership, or a
      marketplace profile and its rating. find_cleaners shows the newest of each.
  pnpm cli key create --email <email> [--json]
      Issue a customer's personal key for the booking service. Prints it once.
  pnpm cli oauth rotate-key [--json]
      Sign new access tokens with a new key; the old one keeps verifying until its tokens expire.
      Also seals every webhook secret again with the current KEY_ENCRYPTION_KEY (run it after rotating that key).
  pnpm cli demo [--json]
      Load the demo business (or give it a fresh key if it is there) and print its key.
  pnpm cli --help

With --json a command prints one JSON object (pro create: pro_id, name, api_key; key create: key).
Exit codes: 0 done, 1 refused or failed (the reason is printed), 2 wrong usage.`;

class UsageError extends Error {}

async function withDb<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  // DATABASE_URL (or its file, with DATABASE_PASSWORD) as the services read it, else the embedded server.
  const settings = readDevDatabase(flatten(process.env), projectRoot());
  const database = await resolveDatabase(settings);
  // An ops tool answers no request: no statement timeout, so a long migration runs to its end.
  const db = createDb(database.url, { maxConnections: 2, applicationName: 'front-desk-cli', statementTimeoutMs: 0 });
  try {
    // The project's own embedded database is brought up to date as `pnpm start` would;
    // a DATABASE_URL database is migrated only by `pnpm cli migrate`, when ops say so.
    if (!settings.url) await migrateToLatest(db);
    return await fn(db);
  } finally {
    await db.destroy();
    await database.stop();
  }
}

async function mustExist(db: Db, proId: string) {
  const pro = await getPro(db, proId);
  if (!pro) throw new NotFoundError(`No business with id ${proId}.`);
  return pro;
}

/** The booking page link `pro set` shows: the book host's URL, read as the pro host reads it. */
const bookingUrlFromEnv = () => {
  const env = flatten(process.env);
  return readUrl(env, 'BOOKING_URL', `http://localhost:${readPort(env, 'BOOKING_PORT', 8081)}`);
};

const WEEKDAY_BY_PREFIX = new Map(WEEKDAYS.map((d) => [d.slice(0, 3), d]));

/** `saturday=closed`, `sat=`, `mon=08:00-12:00,13:00-17:00` as update_business's working_hours. */
function hoursFromFlags(flags: string[]): Record<string, string[]> {
  const hours: Record<string, string[]> = {};
  for (const flag of flags) {
    const [dayText = '', windows = ''] = flag.split('=', 2);
    const day = WEEKDAY_BY_PREFIX.get(dayText.trim().toLowerCase().slice(0, 3));
    if (!day || !flag.includes('=')) throw new UsageError(`--hours "${flag}": write <weekday>=closed or <weekday>=HH:MM-HH:MM[,HH:MM-HH:MM].`);
    const text = windows.trim().toLowerCase();
    hours[day] = text === '' || text === 'closed' ? [] : text.split(',').map((w) => w.trim());
  }
  return hours;
}

/** `name=value` flags as an object of numbers (or text where a name takes text). */
function pairs(flags: string[], flag: string, text: readonly string[] = []): Record<string, number | string> {
  const out: Record<string, number | string> = {};
  for (const pair of flags) {
    const [name = '', value = ''] = pair.split('=', 2);
    if (!pair.includes('=') || !name) throw new UsageError(`--${flag} "${pair}": write <name>=<value>.`);
    if (text.includes(name)) {
      out[name] = value;
      continue;
    }
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n)) throw new UsageError(`--${flag} ${name}: "${value}" is not a number.`);
    out[name] = n;
  }
  return out;
}

/** The flags of `pro set` as an update_business input: the same shape, so the same checks. */
function settingsFromFlags(values: Record<string, string | boolean | string[] | undefined>): Record<string, unknown> {
  let change: Record<string, unknown> = {};
  if (typeof values.change === 'string') {
    try {
      change = JSON.parse(values.change) as Record<string, unknown>;
    } catch {
      throw new UsageError('--change must be a JSON object such as {"add_ons": [...]}.');
    }
  }
  const text = (name: string) => values[name] as string | undefined;
  const number = (flag: string) => {
    const v = text(flag);
    if (v === undefined) return undefined;
    const n = Number(v);
    if (v.trim() === '' || !Number.isFinite(n)) throw new UsageError(`--${flag}: "${v}" is not a number.`);
    return n;
  };
  const orNull = (v: string | undefined) => (v === undefined ? undefined : v.trim() === '' ? null : v);
  const set = (key: string, value: unknown) => {
    if (value !== undefined) change[key] = value;
  };
  set('name', text('name'));
  set('phone', orNull(text('phone')));
  set('email', orNull(text('email')));
  set('website', orNull(text('website')));
  set(
    'service_zips',
    text('zips')
      ?.split(',')
      .map((z) => z.trim())
      .filter(Boolean),
  );
  const hours = values.hours as string[] | undefined;
  if (hours?.length) change.working_hours = { ...(change.working_hours as object), ...hoursFromFlags(hours) };
  const prices = { ...(change.prices as object), ...pairs((values.price as string[] | undefined) ?? [], 'price', ['first_visit']) } as Record<string, unknown>;
  const discounts = pairs((values.discount as string[] | undefined) ?? [], 'discount');
  if (Object.keys(discounts).length) prices.frequency_discounts_pct = { ...(prices.frequency_discounts_pct as object), ...discounts };
  if (Object.keys(prices).length) change.prices = prices;
  set('travel_buffer_minutes', number('travel-buffer'));
  set('slot_step_minutes', number('slot-step'));
  set('min_notice_hours', number('min-notice-hours'));
  return change;
}

/** The crew flags as update_crew's input: the operation's own schema judges them. */
const crewInputSchema = fields(crewChangeFields);

function crewFromFlags(values: Record<string, string | boolean | string[] | undefined>): CrewUpdate {
  const change: Record<string, unknown> = {};
  if (typeof values.name === 'string') change.name = values.name;
  const hours = values.hours as string[] | undefined;
  if (values['business-hours'] && hours?.length) throw new UsageError('Give either --hours or --business-hours, not both.');
  if (hours?.length) change.working_hours = hoursFromFlags(hours);
  if (values['business-hours']) change.working_hours = null;
  if (values.active !== undefined) {
    const active = String(values.active).toLowerCase();
    if (active !== 'yes' && active !== 'no') throw new UsageError('--active must be yes or no.');
    change.active = active === 'yes';
  }
  const judged: CrewUpdate = validateInput({ input: crewInputSchema }, change);
  return judged;
}

/** A crew as `crew list` prints it: id, name, whether it takes jobs, whose hours, upcoming jobs. */
function crewLine(crew: Crew, pro: Pro, upcoming: number): string {
  const shown = presentCrew(crew, pro, upcoming);
  const hours = WEEKDAYS.filter((d) => (shown.working_hours[d] ?? []).length > 0)
    .map((d) => `${d.slice(0, 3)} ${shown.working_hours[d].join(',')}`)
    .join(' ');
  return `${crew.id}  ${crew.name}  ${crew.active ? 'takes jobs' : 'takes no new jobs'}  ${shown.own_hours ? 'own hours' : "business's hours"} (${hours || 'closed'})  ${upcoming} upcoming job${upcoming === 1 ? '' : 's'}`;
}

/** A crew operation's refusal, naming this CLI's flags where it names an operation's field. */
const inCliWords = (message: string) =>
  message
    .replace(/\breassign_to\b/g, '--reassign-to')
    .replace(/\bwith update_crew\b/g, 'with crew update --active yes')
    .replace(/\bmove them with assign_job first\b/, 'give them to other crews on the dashboard first')
    .replace(/; my_business lists the crews\./, '; crew list shows them.');

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
        createOwnedBusiness(db, {
          name: values.name!,
          timezone: values.timezone!,
          service_zips: values
            .zips!.split(',')
            .map((z) => z.trim())
            .filter(Boolean),
          phone: values.phone ?? null,
          email: values.email ?? null,
          owner_email: values.owner ?? values.email ?? null,
          website: values.website ?? null,
        }),
      );
      const signIn = pro.owner_email ? `\nThe owner signs in on the dashboard with ${pro.owner_email}.` : '';
      print(
        json,
        { pro_id: pro.id, name: pro.name, timezone: pro.timezone, service_zips: pro.service_zips, owner_email: pro.owner_email, api_key: apiKey },
        `Created ${pro.name} (${pro.id}).${signIn}\nAPI key (shown once, store it now): ${apiKey}`,
      );
      return;
    }
    case 'pro rotate-key': {
      if (!values.pro) throw new UsageError('pro rotate-key needs --pro <pro_id>.');
      const key = await withDb(async (db) => ((await getPro(db, values.pro!)) ? rotateBusinessKey(db, values.pro!, new Date()) : null));
      if (!key) throw new NotFoundError(`No business with id ${values.pro}.`);
      print(json, { pro_id: values.pro, api_key: key }, `New API key for ${values.pro} (shown once; the old keys stop working now): ${key}`);
      return;
    }
    case 'pro set': {
      if (!values.pro) throw new UsageError('pro set needs --pro <pro_id>.');
      const flags = settingsFromFlags(values);
      const owner = values.owner === undefined ? undefined : values.owner.trim() || null;
      // --owner alone changes only the owner; anything else goes through update_business's checks.
      const change = owner !== undefined && Object.keys(flags).length === 0 ? null : validateInput({ input: settingsChangeSchema }, flags);
      const result = await withDb(async (db) => {
        await mustExist(db, values.pro!);
        if (owner !== undefined) await changeBusinessOwner(db, values.pro!, owner);
        return change
          ? updateBusinessSettings(db, values.pro!, change, new Date())
          : {
              pro: (await getPro(db, values.pro!))!,
              timeOff: await upcomingTimeOff(db, values.pro!, new Date()),
              crews: await listCrews(db, values.pro!, new Date()),
              affected: [],
            };
      });
      const affected = result.affected.map((j) => `\n  ${j.booking_id} ${j.label} ${j.customer_name}: ${j.problem}`).join('');
      const saved = [...Object.keys(change ?? {}), ...(owner === undefined ? [] : ['owner'])];
      print(
        json,
        {
          ...presentBusiness(result.pro, bookingUrlFromEnv(), result.timeOff, result.crews),
          owner_email: result.pro.owner_email,
          affected_jobs: result.affected,
        },
        `Saved ${saved.join(', ')} for ${result.pro.name} (${result.pro.id}).${affected ? `\nBooked jobs affected (none cancelled):${affected}` : ''}`,
      );
      return;
    }
    case 'pro time-off add': {
      if (!values.pro || !values.start || !values.end) throw new UsageError('pro time-off add needs --pro, --start and --end.');
      const input = { start: values.start, end: values.end, ...(values.note === undefined ? {} : { note: values.note }) };
      const { pro, timeOff, affected } = await withDb(async (db) => {
        await mustExist(db, values.pro!);
        return addTimeOff(db, values.pro!, input, new Date());
      });
      const shown = presentTimeOff(timeOff, pro.timezone);
      const inside = affected.map((j) => `\n  ${j.booking_id} ${j.label} ${j.customer_name}`).join('');
      print(
        json,
        { ...shown, affected_jobs: affected },
        `Time off ${shown.time_off_id}: ${shown.label}.${inside ? `\nBooked jobs inside it (none cancelled):${inside}` : ''}`,
      );
      return;
    }
    case 'pro time-off remove': {
      if (!values.pro || !values.id) throw new UsageError('pro time-off remove needs --pro and --id <time_off_id>.');
      const { pro, timeOff } = await withDb((db) => removeTimeOff(db, values.pro!, values.id!));
      const shown = presentTimeOff(timeOff, pro.timezone);
      print(json, { removed: true, ...shown }, `Removed time off ${shown.time_off_id} (${shown.label}).`);
      return;
    }
    case 'pro time-off list': {
      if (!values.pro) throw new UsageError('pro time-off list needs --pro <pro_id>.');
      const { pro, rows } = await withDb(async (db) => {
        const found = await mustExist(db, values.pro!);
        return { pro: found, rows: await upcomingTimeOff(db, found.id, new Date()) };
      });
      const shown = rows.map((t) => presentTimeOff(t, pro.timezone));
      print(
        json,
        { pro_id: pro.id, time_off: shown },
        shown.length ? shown.map((t) => `${t.time_off_id}  ${t.label}${t.note ? `  (${t.note})` : ''}`).join('\n') : `${pro.name} has no upcoming time off.`,
      );
      return;
    }
    case 'crew list': {
      if (!values.pro) throw new UsageError('crew list needs --pro <pro_id>.');
      const { pro, crews, upcoming } = await withDb(async (db) => {
        const found = await mustExist(db, values.pro!);
        return { pro: found, ...(await listCrews(db, found.id, new Date())) };
      });
      print(
        json,
        { pro_id: pro.id, crews: crews.map((c) => presentCrew(c, pro, upcoming.get(c.id) ?? 0)) },
        crews.map((c) => crewLine(c, pro, upcoming.get(c.id) ?? 0)).join('\n'),
      );
      return;
    }
    case 'crew add': {
      if (!values.pro || !values.name) throw new UsageError('crew add needs --pro and --name.');
      if (values.crew || values.active !== undefined || values['business-hours']) throw new UsageError('crew add takes --name and --hours only.');
      const input = crewFromFlags(values) as { name: string; working_hours?: Record<string, string[]> };
      const { pro, crew } = await withDb(async (db) => {
        await mustExist(db, values.pro!);
        return addCrew(db, values.pro!, input, new Date());
      });
      print(json, { pro_id: pro.id, ...presentCrew(crew, pro, 0) }, `Added ${crew.name} (${crew.id}) to ${pro.name}: it takes jobs from now on.`);
      return;
    }
    case 'crew update': {
      if (!values.pro || !values.crew) throw new UsageError('crew update needs --pro and --crew <crew_id>.');
      const change = crewFromFlags(values);
      if (Object.keys(change).length === 0) throw new UsageError('crew update needs --name, --hours, --business-hours or --active.');
      const { pro, crew, upcoming } = await withDb(async (db) => {
        await mustExist(db, values.pro!);
        return updateCrew(db, values.pro!, { ...change, crew_id: values.crew! }, new Date());
      });
      const state = crew.active ? 'takes jobs' : `takes no new jobs${upcoming ? ` (it still has ${upcoming} upcoming job${upcoming === 1 ? '' : 's'})` : ''}`;
      print(
        json,
        { pro_id: pro.id, ...presentCrew(crew, pro, upcoming) },
        `Saved ${crew.name} (${crew.id}): it ${state}, on ${crew.weekly_hours ? 'its own' : "the business's"} hours.`,
      );
      return;
    }
    case 'crew remove': {
      if (!values.pro || !values.crew) throw new UsageError('crew remove needs --pro and --crew <crew_id>.');
      const input = { crew_id: values.crew, ...(values['reassign-to'] ? { reassign_to: values['reassign-to'] } : {}) };
      const { pro, crew, moved } = await withDb(async (db) => {
        await mustExist(db, values.pro!);
        return removeCrew(db, values.pro!, input, new Date());
      });
      const to = moved[0]?.crew_name;
      print(
        json,
        { pro_id: pro.id, removed: true, crew_id: crew.id, name: crew.name, reassigned: moved.map((b) => b.id) },
        `Removed ${crew.name} (${crew.id}).${to ? ` Its ${moved.length} upcoming job${moved.length === 1 ? '' : 's'} moved to ${to}.` : ''}`,
      );
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
        await mustExist(db, values.pro!);
        return recordCheck(db, {
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
      const { key, record } = await withDb((db) => issuePersonalKey(db, values.email!));
      print(json, { key, email: record.email, key_id: record.id }, `Personal key for ${record.email} (shown once, store it now): ${key}`);
      return;
    }
    case 'oauth rotate-key': {
      // Sealed with KEY_ENCRYPTION_KEY, or for a local run the key in the data folder, as pnpm start uses it.
      const sealer = keySealerFrom(readKeyEncryptionKeys(flatten(withLocalKeyEncryptionKey(process.env, projectRoot()))));
      const { kid, webhooks } = await withDb(async (db) => ({
        kid: await rotateSigningKey(db, sealer, new Date()),
        webhooks: await resealWebhookSecrets(db, sealer),
      }));
      print(
        json,
        { kid, webhook_secrets_resealed: webhooks },
        `New signing key ${kid}. Replicas pick it up within a minute; tokens signed with the old key stay valid until they expire.\n${webhooks} webhook secret${webhooks === 1 ? '' : 's'} sealed again with the current key-encryption key.`,
      );
      return;
    }
    case 'demo': {
      const { pro, apiKey, created } = await withDb((db) => loadDemoBusiness(db, new Date()));
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
        ? inCliWords(err.message)
        : (err as { code?: string }).code === '42P01'
          ? 'The database has no Front Desk schema yet: run "pnpm cli migrate" first.'
          : `Failed: ${err instanceof Error ? err.message : String(err)}`;
    process.stderr.write(`${message}\n`);
    process.exit(1);
  },
);
