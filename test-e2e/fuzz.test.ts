import Ajv from 'ajv';
import fc from 'fast-check';
import { sql } from 'kysely';
import { ADD_ON_NAME_PATTERN, CLEAN_TYPES, MULTI_LINE_PATTERN, WINDOW_PATTERN, startsOf } from '@frontdesk/domain';
import { signInCodeSentTo } from '@frontdesk/db/testing';
import {
  CONTROL_CHARACTERS,
  LINE_BREAKS,
  asPublic,
  bothHosts,
  newCleaner,
  proBooking,
  textBreakingTheRules,
  textFieldsOf,
  type Hosts,
} from '@frontdesk/dev-env/both-hosts';
import { ALL_OPERATIONS } from '@frontdesk/dev-env/pro-desk';

// Schema-driven fuzzing: every operation each host publishes in /openapi.json gets inputs
// generated from its own schema, mostly valid and partly hostile, over REST and over MCP.
// Whatever arrives: no 5xx, every refusal a sentence, nothing the schema forbids accepted,
// and nothing written by a refused request. Control and line-separator characters (CR, LF,
// NUL, tab, NEL, U+2028, U+2029, the bidi overrides and isolates) go into every text field
// and the headers that carry names: refused in every one-line field, and at the end no
// stored text holds one where it may not. FUZZ_RUNS sets the inputs per operation
// (`pnpm fuzz` runs a larger sweep); the seed is fixed so a failure replays.
const RUNS = Number(process.env.FUZZ_RUNS || 150);
const SEED = Number(process.env.FUZZ_SEED || 20261121);
jest.setTimeout(Math.max(120_000, RUNS * 4_000));

type Schema = Record<string, any>;
interface Target {
  host: 'pro' | 'book';
  name: string;
  method: 'get' | 'post';
  schema: Schema;
}

let h: Hosts;
let ids: Record<string, string[]>;
let toAssign: { bookingId: string; crewId: string; removable: string };
let hosts: Record<'pro' | 'book', { api: Hosts['pro']; auth: Record<string, string> }>;

beforeAll(async () => {
  h = await bothHosts();
  const a = await newCleaner(h, { owner_email: DASHBOARD_OWNER });
  const b = await newCleaner(h);
  // Real ids to aim at, so generated calls reach past "not found" into the rules.
  const lead = await h.pro.post('/api/v1/log_lead').set(a.auth).send({ source: 'marketplace_1', lead_cost: 20, bedrooms: 2, bathrooms: 1 }).expect(200);
  const job = await h.pro
    .post('/api/v1/book_job')
    .set(a.auth)
    .send(proBooking({ bedrooms: 1 }))
    .expect(200);
  const off = await h.pro.post('/api/v1/add_time_off').set(a.auth).send({ start: '2026-12-01', end: '2026-12-01' }).expect(200);
  const booked = await h.book
    .post('/api/v1/book_cleaning')
    .set(asPublic)
    .send({
      cleaner_id: b.pro.id,
      start: '2026-11-24T09:00:00-05:00',
      bedrooms: 1,
      bathrooms: 1,
      customer_name: 'Bo',
      customer_email: 'bo@example.com',
      address: '2 Main St',
      zip: '10001',
    })
    .expect(200);
  ids = {
    cleaner_id: [a.pro.id, b.pro.id],
    lead_id: [lead.body.lead_id],
    booking_id: [job.body.booking_id],
    manage_token: [booked.body.manage_token],
    time_off_id: [off.body.time_off_id],
    crew_id: [(await h.pro.get('/api/v1/my_business').set(a.auth).expect(200)).body.crews[0].crew_id],
    client_id: [(await h.pro.get('/api/v1/list_clients').set(a.auth).expect(200)).body.clients[0].client_id],
    // Receivers on this machine's closed port 9 (the test hosts run on http, so loopback is
    // allowed): a test event fails at once instead of waiting on a lookup or a stranger.
    url: Array.from({ length: 12 }, (_, i) => `http://127.0.0.1:9/hook-${i}`),
  };
  hosts = { pro: { api: h.pro, auth: a.auth }, book: { api: h.book, auth: { ...asPublic, 'X-User-Name': 'Fuzz', 'X-User-Email': 'fuzz@example.com' } } };
  // A job on one crew and another crew free to take it, made before any fuzzed call changes the business.
  // (add_crew's own calls may fill the business up to its 50 crews.)
  // The job is months out, past the days the fuzzed time off lands on.
  toAssign = { bookingId: await liveJob(await freshCrew(), '2027-03-10T15:00:00-05:00'), crewId: await freshCrew(), removable: await freshCrew() };
  // The crew to remove takes no new jobs, or the fuzzed bookings would land on it (the emptiest crew) and hold it.
  await h.pro.post('/api/v1/update_crew').set(a.auth).send({ crew_id: toAssign.removable, active: false }).expect(200);
});
afterAll(async () => {
  process.stdout.write(
    `\nfuzz: ${tally.sent} requests sent, ${tally.refused} refused, ${tally.failed} answered 5xx; ${tally.stored.length} stored texts break the text rules\n`,
  );
  await h.close();
});

/** What the whole run sent and got, printed at its end (a 5xx fails the run where it happens). */
const tally = { sent: 0, refused: 0, failed: 0, stored: [] as string[] };

/** After a sweep: no stored text, in any column, holds a character its rule refuses. */
async function nothingStoredBreaksTheRules(): Promise<void> {
  tally.stored = await textBreakingTheRules(h.t.db);
  expect(tally.stored).toEqual([]);
}

/** A new crew of the first cleaner, working around the clock, with no jobs: one a crew operation can always act on. */
let crews = 0;
async function freshCrew(): Promise<string> {
  const allDay = Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, ['00:00-24:00']]));
  const res = await h.pro
    .post('/api/v1/add_crew')
    .set(hosts.pro.auth)
    .send({ name: `Fuzz crew ${(crews += 1)}`, working_hours: allDay })
    .expect(200);
  return (res.body as { crew_id: string }).crew_id;
}

/**
 * The first cleaner's webhooks cleared and one made fresh: a webhook operation always has one to
 * act on, whatever the calls before it removed or filled (at most 10 a business).
 */
let webhooks = 0;
async function freshWebhook(): Promise<string> {
  const { api, auth } = hosts.pro;
  for (const w of (await api.get('/api/v1/list_webhooks').set(auth).expect(200)).body.webhooks as { webhook_id: string }[]) {
    await api.post('/api/v1/remove_webhook').set(auth).send({ webhook_id: w.webhook_id }).expect(200);
  }
  const res = await api
    .post('/api/v1/add_webhook')
    .set(auth)
    .send({ url: `http://127.0.0.1:9/fresh-${(webhooks += 1)}` })
    .expect(200);
  return (res.body as { webhook_id: string }).webhook_id;
}

/** A fresh property whose calendar is this machine's closed port 9, so a sync fails at once instead of reaching a stranger. */
let properties = 0;
async function freshProperty(): Promise<string> {
  const { api, auth } = hosts.pro;
  const res = await api
    .post('/api/v1/add_property')
    .set(auth)
    .send({
      name: `Rental ${(properties += 1)}`,
      address: '5 Dock St',
      zip: '10001',
      bedrooms: 1,
      bathrooms: 1,
      host_name: 'Hu',
      host_email: 'hu@example.com',
      calendar_urls: [`http://127.0.0.1:9/calendar-${properties}.ics`],
    })
    .expect(200);
  return (res.body as { property_id: string }).property_id;
}

/**
 * A fresh hold of the host's caller on the first cleaner's last open start (earlier calls may
 * have taken time off, booked others, or left a price list offering only some clean types).
 */
async function freshHold(host: 'pro' | 'book'): Promise<string> {
  const { api, auth } = hosts[host];
  // A fuzzed update_business may have asked for up to two weeks' notice, past every start looked at.
  await h.pro.post('/api/v1/update_business').set(hosts.pro.auth).send({ min_notice_hours: 24 }).expect(200);
  let job: Record<string, unknown> | undefined;
  for (const clean_type of CLEAN_TYPES) {
    const size = { bedrooms: 1, bathrooms: 1, clean_type, days: 14 };
    const open =
      host === 'pro' ? api.get('/api/v1/open_times').query(size) : api.get('/api/v1/available_times').query({ cleaner_id: ids.cleaner_id![0], ...size });
    const res = await open.set(auth);
    if (res.status !== 200) continue;
    job = { bedrooms: 1, bathrooms: 1, clean_type, start: startsOf(res.body.open_times).at(-1) };
    break;
  }
  if (!job) throw new Error('The first cleaner offers no clean type to hold.');
  const res = await api
    .post('/api/v1/hold_time')
    .set(auth)
    .send(host === 'pro' ? job : { cleaner_id: ids.cleaner_id![0], ...job })
    .expect(200);
  return (res.body as { hold_id: string }).hold_id;
}

/** The second visit of a fresh weekly plan of the first cleaner, from its quiet Thursday on: a visit pause_series can act on. */
async function planVisit(): Promise<string> {
  const res = await h.pro
    .post('/api/v1/book_job')
    .set(hosts.pro.auth)
    .send(proBooking({ bedrooms: 1, start: '2026-11-26T17:30:00-05:00', frequency: 'weekly', skip_conflicts: true }))
    .expect(200);
  return (res.body as { series: { visits: { booking_id: string }[] } }).series.visits[1]!.booking_id;
}

/** A fresh job of the first cleaner (the pro host's caller), on its quiet Thursday (on a crew when named). */
async function liveJob(crewId?: string, start = '2026-11-26T15:00:00-05:00'): Promise<string> {
  const res = await h.pro
    .post('/api/v1/book_job')
    .set(hosts.pro.auth)
    .send(proBooking({ bedrooms: 1, start, ...(crewId ? { crew_id: crewId } : {}) }))
    .expect(200);
  return (res.body as { booking_id: string }).booking_id;
}

/**
 * A fresh job of today (the test clock's Monday, 7:00) whose customer gave an email, so
 * notify_on_my_way has one to tell: booked on the first quiet midday the fuzzed bookings
 * left, then moved to 7:05-7:35 this morning, as time passing would (before any opening hour
 * the fuzzed settings could give).
 */
async function jobOfToday(): Promise<string> {
  const said: string[] = [];
  for (const start of ['2026-11-26T12:00:00-05:00', '2026-11-30T12:00:00-05:00', '2026-12-02T12:00:00-05:00', '2026-12-03T12:00:00-05:00']) {
    const res = await h.pro
      .post('/api/v1/book_job')
      .set(hosts.pro.auth)
      .send(proBooking({ bedrooms: 1, start, customer_email: 'fuzz-omw@example.com' }));
    if (res.status !== 200) {
      said.push(`${start}: ${res.status} ${res.text}`);
      continue;
    }
    const id = (res.body as { booking_id: string }).booking_id;
    const [from, to] = [new Date('2026-11-23T12:05:00Z'), new Date('2026-11-23T12:35:00Z')];
    await h.t.db.updateTable('bookings').set({ starts_at: from, ends_at: to, blocked_until: to }).where('id', '=', id).execute();
    return id;
  }
  throw new Error(`No quiet midday left to book: ${said.join('; ')}`);
}

/**
 * A fresh booking's manage token, on the second cleaner's quiet afternoons: the first of them
 * the fuzzed bookings before it left open (a long sweep may fill one).
 */
async function liveManageToken(): Promise<string> {
  const said: string[] = [];
  for (const start of ['2026-11-25T15:00:00-05:00', '2026-11-30T15:00:00-05:00', '2026-12-02T15:00:00-05:00', '2026-12-03T15:00:00-05:00']) {
    const res = await h.book.post('/api/v1/book_cleaning').set(asPublic).send({
      cleaner_id: ids.cleaner_id![1],
      start,
      bedrooms: 1,
      bathrooms: 1,
      customer_name: 'Cy',
      customer_email: 'cy@example.com',
      address: '3 Main St',
      zip: '10001',
    });
    if (res.status === 200) return (res.body as { manage_token: string }).manage_token;
    said.push(`${start}: ${res.status} ${res.text}`);
  }
  throw new Error(`No quiet midday left to book: ${said.join('; ')}`);
}

/** The operations a host publishes, each with the schema of its input. */
function targetsOf(host: 'pro' | 'book', doc: Schema): Target[] {
  return Object.entries(doc.paths as Record<string, Schema>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]: [string, Schema]) => {
      const name = path.replace('/api/v1/', '');
      if (method === 'post') return { host, name, method: 'post' as const, schema: op.requestBody.content['application/json'].schema };
      const query = (op.parameters as Schema[]).filter((p) => p.in === 'query');
      const schema = {
        type: 'object',
        properties: Object.fromEntries(query.map((p) => [p.name, p.schema])),
        required: query.filter((p) => p.required).map((p) => p.name),
        additionalProperties: false,
      };
      return { host, name, method: 'get' as const, schema };
    }),
  );
}

const INFINITY = '__fuzz_infinity__';
/** Stands for lists nested 15000 deep in a JSON body (30 KB: deeper than a reader that walks on the call stack survives). */
const DEEP = '__fuzz_deep__';
const deepJson = '['.repeat(15_000) + ']'.repeat(15_000);
/** Lists nested 40 deep: past the 32 levels any input may have, well within what JSON.stringify writes. */
const nested = (depth: number): unknown => (depth === 0 ? 'x' : [nested(depth - 1)]);
const hostileString = fc.constantFrom(
  '',
  ' ',
  'not-an-email',
  '12',
  'tomorrow',
  '2026-11-29T10:00:00-05:00',
  '2025-11-24T10:00:00-05:00',
  'a\u0000b',
  '\ud800',
  'x\udc00',
  '__proto__',
  'constructor',
  '10:00',
  'Infinity',
  'NaN',
  '1e999',
  '-1',
  'x'.repeat(600),
  "'; DROP TABLE pros; --",
  '<script>',
  '%00',
  '😀',
  'Evil\r\nBcc: x@y.example',
  'a\rb',
  'a\u2028b',
  'a\u0085b',
  '\u202eevil',
  'x\u2066y\u2069',
);
const hostile: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.constantFrom(null, true, false, 0, -1, 1.5, 2 ** 53, -(2 ** 60), INFINITY, DEEP, nested(40), [], {}, [null], { __proto__: null, a: 1 }),
  fc.integer({ min: -1e9, max: 1e9 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ maxLength: 20 }),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
);

const PATTERNS: Record<string, fc.Arbitrary<string>> = {
  '^[0-9]{5}$': fc.constantFrom('10001', '10001', '10001', '10002', '94110', '00000'),
  '^([01][0-9]|2[0-3]):[0-5][0-9]$': fc.constantFrom('08:00', '10:00', '13:30', '23:59', '00:00'),
  '^[0-9]{4}-[0-9]{2}-[0-9]{2}$': fc.constantFrom('2026-11-24', '2026-11-29', '2026-02-30', '2027-01-04', '2025-11-24'),
  '^[0-9]{4}-(0[1-9]|1[0-2])$': fc.constantFrom('2026-11', '2026-12', '1999-01'),
  [WINDOW_PATTERN]: fc.constantFrom('08:00-17:00', '09:00-12:00', '13:00-15:30', '17:00-08:00', '00:00-24:00', '12:00-12:00'),
  [ADD_ON_NAME_PATTERN]: fc.constantFrom('oven', 'fridge', 'balcony', 'garage_floor'),
  // Calendar addresses: this machine's closed port 9 (a read fails at once), or a name nobody serves.
  '^https?://': fc.constantFrom('http://127.0.0.1:9/a.ics', 'http://127.0.0.1:9/b.ics', 'https://calendar.invalid/c.ics'),
};

/** Time off bounds: whole local days, exact times, and some that end before they start. */
const TIME_OFF_BOUNDS = fc.constantFrom('2026-11-27', '2026-11-28', '2026-11-24T12:00:00-05:00', '2026-12-01', '2027-12-25', '2026-11-20');

/** Values for one field: mostly what the schema allows, sometimes anything at all. */
function valueOf(field: string, s: Schema): fc.Arbitrary<unknown> {
  let valid: fc.Arbitrary<unknown>;
  if (ids[field])
    valid = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...ids[field]) }, { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 20 }) });
  else if (s.enum) valid = fc.constantFrom(...(s.enum as unknown[]));
  else if (s.pattern && PATTERNS[s.pattern]) valid = PATTERNS[s.pattern]!;
  else if (s.type === 'object' && s.properties)
    valid = sparseRecord(s); // a nested part: prices, working_hours
  else if (s.type === 'array' && (s.items?.type === 'object' || PATTERNS[s.items?.pattern])) {
    valid = fc.array(valueOf(field, s.items), { maxLength: Math.min(s.maxItems ?? 3, 3) });
  } else if (s.type === 'array' && s.items?.type === 'integer') {
    // A table such as usual sizes by bedroom count: mostly rising, as the rules want.
    const items = fc.integer({ min: s.items.minimum ?? 0, max: s.items.maximum ?? 1000 });
    valid = fc.array(items, { minLength: s.minItems ?? 0, maxLength: s.maxItems ?? 5 }).chain((a) =>
      fc.constantFrom(
        [...a].sort((x, y) => x - y),
        a,
      ),
    );
  } else if (field.includes('website')) valid = fc.constantFrom('https://maple.example', 'http://a.example/b', null);
  else if (field === 'end') valid = TIME_OFF_BOUNDS;
  else if (field === 'start') {
    valid = fc.constantFrom(
      '2026-11-24T13:00:00-05:00',
      '2026-11-25T09:00:00-05:00',
      '2026-11-26T11:30:00-05:00',
      '2026-11-27T10:00:00-05:00',
      '2026-11-24T09:00:00-05:00',
      '2026-11-24T10:10:00-05:00',
      '2026-11-24T09:00',
      '2026-11-27',
    );
  } else if (field === 'expected_total') valid = fc.constantFrom(120, 135, 145, 155);
  else if (s.type === 'integer') valid = fc.integer({ min: s.minimum ?? -100, max: s.maximum ?? 100_000 });
  else if (s.type === 'number') valid = fc.integer({ min: (s.minimum ?? 0) * 2, max: Math.min(s.maximum ?? 1000, 1000) * 2 }).map((n) => n / 2);
  else if (s.type === 'boolean') valid = fc.boolean();
  else if (s.type === 'array') {
    valid = fc.oneof(
      { weight: 4, arbitrary: fc.uniqueArray(fc.constantFrom('oven', 'fridge', 'windows'), { maxLength: 3 }) },
      { weight: 1, arbitrary: fc.array(fc.oneof(fc.constantFrom('pool', 'OVEN'), fc.string({ maxLength: 8 })), { maxLength: (s.maxItems ?? 5) + 1 }) },
    );
  } else if (field.includes('email')) valid = fc.constantFrom('ana@example.com', 'a@b.co');
  else if (field.includes('phone')) valid = fc.constantFrom('212 555 0100', '+1 (212) 555-0100');
  else {
    // Free text: any text the schema allows, including what PostgreSQL cannot store.
    const text = fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 30, 40) });
    valid = fc.oneof({ weight: 3, arbitrary: text }, { weight: 1, arbitrary: fc.constantFrom('Gate\u0000code', 'x\ud800y', '\udc00abc', 'Zoë 😀 ok') });
  }
  return fc.oneof({ weight: 12, arbitrary: valid }, { weight: 1, arbitrary: hostile });
}

/**
 * A header that carries a name, now and then, with a value a client can send: Node's client
 * refuses CR, LF and other C0 in a header, so these are the tab, Latin-1 bytes of C1 (NEL),
 * and the UTF-8 bytes of U+2028, NEL and the overrides, each byte a Latin-1 character.
 */
const utf8Bytes = (text: string) => Buffer.from(text, 'utf8').toString('latin1');
const HOSTILE_HEADER_VALUES = [
  'Evil\tBcc: x@y.example',
  'Evil\u0085Bcc',
  ...['Evil\u2028Bcc: x', 'Evil\u0085Bcc', 'Maids \u202egnp.exe', 'x\u2066y'].map(utf8Bytes),
];
type NameHeader = { name: string; value: string; hostile: boolean } | null;
const nameHeader = (host: 'pro' | 'book'): fc.Arbitrary<NameHeader> =>
  fc.oneof(
    { weight: 10, arbitrary: fc.constant(null) },
    {
      weight: 1,
      arbitrary: fc.record({
        name: fc.constantFrom(...(host === 'book' ? ['X-User-Name', 'X-User-Email', 'X-User-Phone', 'X-Client-Name'] : ['X-Client-Name'])),
        value: fc.constantFrom(...HOSTILE_HEADER_VALUES),
        hostile: fc.constant(true),
      }),
    },
    { weight: 1, arbitrary: fc.constant({ name: 'X-Client-Name', value: utf8Bytes('Asistente Ñ'), hostile: false }) },
  );

/**
 * An object of a schema's properties: its required ones and at most three others, so an
 * input that changes only some settings (as most do) is drawn often enough to pass.
 */
function sparseRecord(s: Schema): fc.Arbitrary<Record<string, unknown>> {
  const props = s.properties as Record<string, Schema>;
  const required: string[] = s.required ?? [];
  const optional = Object.keys(props).filter((k) => !required.includes(k));
  return fc
    .subarray(optional, { maxLength: Math.min(3, optional.length) })
    .chain((chosen) => fc.record(Object.fromEntries([...required, ...chosen].map((k) => [k, valueOf(k, props[k]!)]))));
}

/** `arb` once in `n` draws, null otherwise. */
const rarely = <T>(arb: fc.Arbitrary<T>, n: number) => fc.oneof({ weight: n - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: arb });

/** A whole input: the required fields (one now and then left out), some optional ones, now and then a stranger. */
function inputOf(t: Target): fc.Arbitrary<Record<string, unknown>> {
  const props = t.schema.properties as Record<string, Schema>;
  const required: string[] = t.schema.required ?? [];
  // An operation with many fields and none required (update_business) changes a few at a time.
  const record =
    required.length === 0 && Object.keys(props).length > 6
      ? sparseRecord(t.schema)
      : fc.record(Object.fromEntries(Object.entries(props).map(([k, s]) => [k, valueOf(k, s)])), { requiredKeys: required });
  return fc
    .tuple(
      record,
      rarely(fc.constantFrom(...(required.length ? required : ['none'])), 8),
      rarely(fc.constantFrom('__proto__', 'colour', 'add_ons[a][b]', 'constructor'), 8),
      rarely(hostile, 2),
      rarely(fc.constant(true), 4),
    )
    .map(([generated, dropped, stranger, strangeValue, keepExpected]) => {
      const input: Record<string, unknown> = { ...generated };
      // expected_total must equal a price the generator cannot know: sent once in four, it is refused most times.
      if (!keepExpected) delete input.expected_total;
      // A booking's hold_id must name a live hold of the caller's, which the generator cannot know:
      // it would only be refused (services/*/test/operations/holds.test.ts book with real ones).
      if (t.name !== 'release_hold') delete input.hold_id;
      // Now and then a required field is left out, or a field that does not exist comes along.
      if (dropped !== null) delete input[dropped];
      if (stranger !== null) Object.defineProperty(input, stranger, { value: strangeValue ?? 1, enumerable: true, writable: true, configurable: true });
      return input;
    });
}

const asJson = (value: unknown) => JSON.stringify(value).replaceAll(`"${INFINITY}"`, '1e999').replaceAll(`"${DEEP}"`, deepJson);
const asText = (v: unknown): string =>
  v === INFINITY ? 'Infinity' : Array.isArray(v) ? v.map(asText).join(',') : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v);
/** Percent-encodes for a URL; a lone surrogate goes as the bytes a careless client would send (invalid UTF-8). */
const encode = (text: string) =>
  text
    .split(/([\ud800-\udfff])/u)
    .map((part) => (/^[\ud800-\udfff]$/.test(part) ? '%ED%A0%80' : encodeURIComponent(part).replaceAll('%3A', ':')))
    .join('');
const queryOf = (input: Record<string, unknown>) =>
  Object.entries(input)
    .map(([k, v]) => `${encode(k)}=${encode(asText(v))}`)
    .join('&');

/** The contract's reading of a query value, for the oracle: digits are numbers, true/false booleans, commas lists. */
function readQueryValue(text: string, s: Schema): unknown {
  if ((s.type === 'integer' || s.type === 'number') && /^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (s.type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  if (s.type === 'array') return text === '' ? [] : text.split(',').map((p) => p.trim());
  return text;
}

const oracle = new Ajv({ strict: false, strictNumbers: true, allErrors: false });
function schemaAllows(t: Target, input: Record<string, unknown>, via: 'rest' | 'mcp'): boolean {
  const props = t.schema.properties as Record<string, Schema>;
  // A REST read arrives as a query string; everything else (bodies, MCP arguments) as JSON.
  const seen =
    t.method === 'get' && via === 'rest'
      ? Object.fromEntries(Object.entries(input).map(([k, v]) => [k, props[k] ? readQueryValue(asText(v), props[k]) : v]))
      : JSON.parse(JSON.stringify(input), (_k, v) => (v === INFINITY ? Infinity : v));
  return oracle.validate(t.schema, seen) === true;
}

const writes = async () =>
  (
    await sql<{ sig: string }>`SELECT concat_ws('|',
      (SELECT count(*) FROM bookings), (SELECT count(*) FROM leads), (SELECT max(updated_at) FROM leads), (SELECT max(updated_at) FROM bookings),
      (SELECT count(*) FROM events), (SELECT count(*) FROM notifications), (SELECT sum(event_seq) FROM pros),
      (SELECT count(*) FROM idempotency_keys), (SELECT count(*) FROM time_off), (SELECT sum(config_version) FROM pros)) AS sig`.execute(h.t.db)
  ).rows[0]!.sig;

/**
 * A body that lies about itself: a Content-Encoding it does not have (gzip, deflate, br), one
 * no reader knows, or a charset other than UTF-8. Null most of the time: an honest body.
 */
type Lie = null | 'gzip' | 'deflate' | 'br' | 'compress' | 'charset';
const LIES: fc.Arbitrary<Lie> = fc.oneof(
  { weight: 12, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.constantFrom<Lie>('gzip', 'deflate', 'br', 'compress', 'charset') },
);

async function send(t: Target, input: Record<string, unknown>, via: 'rest' | 'mcp', lie: Lie = null, named: NameHeader = null) {
  const { api } = hosts[t.host];
  const auth = named ? { ...hosts[t.host].auth, [named.name]: named.value } : hosts[t.host].auth;
  // A body sent as text goes out in one piece with the headers, all encoded as UTF-8, which
  // would change a header's Latin-1 bytes: with a name header, the body is written as bytes.
  const body = <R extends { send(b: string): R; write(b: Buffer): boolean }>(r: R, text: string): R => {
    if (!named) return r.send(text);
    r.write(Buffer.from(text));
    return r;
  };
  const lying = (r: ReturnType<typeof api.post>) =>
    lie === 'charset'
      ? r.set('Content-Type', 'application/json; charset=latin9')
      : lie
        ? r.set('Content-Type', 'application/json').set('Content-Encoding', lie)
        : r.set('Content-Type', 'application/json');
  if (via === 'mcp') {
    const call = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":${JSON.stringify(t.name)},"arguments":${asJson(input)}}}`;
    return body(lying(api.post('/mcp').set(auth).set('Accept', 'application/json, text/event-stream')), call);
  }
  if (t.method === 'get') return api.get(`/api/v1/${t.name}?${queryOf(input)}`).set(auth);
  return body(lying(api.post(`/api/v1/${t.name}`).set(auth)), asJson(input));
}

describe.each(['pro', 'book'] as const)('fuzzing every operation of the %s host from its /openapi.json', (host) => {
  it('never answers 5xx, refuses in sentences, accepts nothing the schema forbids, and writes nothing when it refuses', async () => {
    const doc = (await hosts[host].api.get('/openapi.json').expect(200)).body as Schema;
    const targets = targetsOf(host, doc);
    expect(targets.length).toBe(ALL_OPERATIONS[host].length);
    let sent = 0;
    const accepted = new Set<string>();
    for (const [i, t] of targets.entries()) {
      // The cancel runs before them cancel the bookings the ids name: a move needs a live one.
      if (t.name === 'reschedule_booking') ids.manage_token = [await liveManageToken()];
      if (t.name === 'reschedule_job') ids.booking_id = [await liveJob()];
      if (t.name === 'pause_series') ids.booking_id = [await planVisit()];
      if (t.name === 'notify_on_my_way') ids.booking_id = [await jobOfToday()];
      // A crew to remove, and a job with a crew free to take it: earlier calls may have renamed, deactivated or filled the others.
      if (t.name === 'remove_crew') ids.crew_id = [toAssign.removable];
      if (t.name === 'assign_job') [ids.booking_id, ids.crew_id] = [[toAssign.bookingId], [toAssign.crewId]];
      if (/_webhook(_secret)?$/.test(t.name)) ids.webhook_id = [await freshWebhook()];
      // Earlier calls may have removed it, or pointed its calendars at strangers' addresses.
      if (/_propert(y|ies)$/.test(t.name)) ids.property_id = [await freshProperty()];
      // The holds hold_time's runs took would keep every plausible start from the bookings and the fresh hold after them.
      if (/^(book_|release_hold)/.test(t.name)) await sql`UPDATE holds SET released_at = now() WHERE released_at IS NULL AND used_at IS NULL`.execute(h.t.db);
      if (t.name === 'release_hold') ids.hold_id = [await freshHold(host)];
      await fc.assert(
        fc.asyncProperty(inputOf(t), fc.constantFrom('rest' as const, 'mcp' as const), LIES, nameHeader(host), async (input, via, lie, named) => {
          const before = await writes();
          const res = await send(t, input, via, lie, named);
          sent += 1;
          tally.sent += 1;
          const header = named ? `${named.name}: ${JSON.stringify(named.value)} ` : '';
          const where = `${via} ${t.name} ${lie ?? ''} ${header}${asJson(input).slice(0, 300)} -> ${res.status} ${res.text.slice(0, 300)}`;
          if (res.status >= 500) {
            tally.failed += 1;
            throw new Error(`5xx: ${where}`);
          }
          // A body that lies about its encoding is refused before it is read: 400 or 415, in a sentence.
          // (MCP reads its body as text in any charset it knows, so only a false Content-Encoding is a lie there.)
          if (lie && (via === 'rest' ? t.method === 'post' : lie !== 'charset')) {
            const said = (via === 'mcp' ? res.body.error?.message : res.body.error) as unknown;
            if (![400, 415].includes(res.status) || !(typeof said === 'string' && /^[A-Z].*\.$/.test(said)))
              throw new Error(`a lie not refused in a sentence: ${where}`);
            if ((await writes()) !== before) throw new Error(`a refused request wrote rows: ${where}`);
            return;
          }
          // A header that carries a name holds to the one-line rule as a field does.
          const allowed = schemaAllows(t, input, via) && !named?.hostile;
          let refused: boolean;
          if (via === 'rest') {
            expect(res.headers['content-type']).toMatch(/application\/json/);
            refused = res.status !== 200;
            if (refused && !(typeof res.body.error === 'string' && /\S.*[.?!)"]$/s.test(res.body.error))) throw new Error(`no sentence: ${where}`);
            if (!refused && !allowed) throw new Error(`accepted what the schema forbids: ${where}`);
          } else {
            // A user header is judged with the credential, before the message: a 400 JSON-RPC error naming it.
            const headerRefused = named?.hostile === true && res.status === 400 && String(res.body.error?.message).includes(named.name);
            if (!headerRefused && res.status !== 200) throw new Error(`not a JSON-RPC answer: ${where}`);
            if (res.body.jsonrpc !== '2.0') throw new Error(`not a JSON-RPC answer: ${where}`);
            const result = res.body.result;
            refused = result?.isError === true || res.body.error !== undefined;
            if (result?.isError && !(typeof result.content?.[0]?.text === 'string' && result.content[0].text.length > 5))
              throw new Error(`no sentence: ${where}`);
            if (!refused && !allowed) throw new Error(`accepted what the schema forbids: ${where}`);
          }
          if (refused && (await writes()) !== before) throw new Error(`a refused request wrote rows: ${where}`);
          if (refused) tally.refused += 1;
          else accepted.add(t.name);
        }),
        { numRuns: RUNS, seed: SEED + i, endOnFailure: true },
      );
    }
    expect(sent).toBe(targets.length * RUNS);
    await nothingStoredBreaksTheRules();
    // The generator reaches past the schema into the rules: every operation answered some calls
    // (report_no_show cannot: its only job has not started yet on the test clock).
    expect([...accepted].sort()).toEqual(
      targets
        .map((t) => t.name)
        .filter((n) => n !== 'report_no_show')
        .sort(),
    );
  });
});

// Every text field of every operation, at any depth, gets every control and line-separator
// character (and NUL), over REST and MCP; every header that carries a name gets those a client
// can send. A one-line field refuses each; a multi-line one may take only the line breaks and
// tabs; nothing is answered 5xx, and nothing stored breaks the text rules.
describe.each(['pro', 'book'] as const)('control characters in every text field and name header of the %s host', (host) => {
  const CONTROLS = { ...CONTROL_CHARACTERS, NUL: '\u0000' };

  it('are refused in every one-line field, kept only as line breaks in a multi-line one, never answered 5xx, never stored', async () => {
    const doc = (await hosts[host].api.get('/openapi.json').expect(200)).body as Schema;
    const fields = textFieldsOf(doc);
    expect(fields.length).toBeGreaterThanOrEqual(host === 'pro' ? 50 : 15);
    const wrong: string[] = [];
    for (const f of fields) {
      const t: Target = { host, name: f.op, method: f.method, schema: {} };
      for (const [name, ch] of Object.entries(CONTROLS)) {
        const keeps = f.pattern === MULTI_LINE_PATTERN && LINE_BREAKS.includes(name);
        for (const via of ['rest', 'mcp'] as const) {
          const res = await send(t, f.input(`Ev${ch}il Bcc: x@y.example`), via);
          tally.sent += 1;
          const refused = via === 'rest' ? res.status !== 200 : res.body.result?.isError === true || res.body.error !== undefined;
          if (refused) tally.refused += 1;
          if (res.status >= 500) tally.failed += 1;
          if (res.status >= 500 || (!keeps && !refused)) wrong.push(`${via} ${f.op} ${f.field} ${name} -> ${res.status} ${res.text.slice(0, 200)}`);
        }
      }
    }
    const op = host === 'pro' ? 'my_business' : 'find_cleaners';
    const input = host === 'pro' ? {} : { zip: '10001', bedrooms: 1, bathrooms: 1 };
    for (const name of host === 'book' ? ['X-User-Name', 'X-User-Email', 'X-User-Phone', 'X-Client-Name'] : ['X-Client-Name']) {
      for (const value of HOSTILE_HEADER_VALUES) {
        for (const via of ['rest', 'mcp'] as const) {
          const res = await send({ host, name: op, method: 'get', schema: {} }, input, via, null, { name, value, hostile: true });
          tally.sent += 1;
          const said = JSON.stringify(res.body);
          if (said.includes(`${name} header must be one line`)) tally.refused += 1;
          else wrong.push(`${via} ${op} ${name}: ${JSON.stringify(value)} -> ${res.status} ${said.slice(0, 200)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    await nothingStoredBreaksTheRules();
  });
});

// The rest of what a stranger can reach: the sign-in, key and sign-up forms and their JSON
// twins, the booking and manage pages, and the OAuth endpoints of both hosts. Each gets its
// own fields, mostly plausible and partly hostile (NUL, broken surrogates, nesting, lists
// where text belongs, bodies that lie about their encoding): whatever arrives, no 5xx.
type Encoding = 'form' | 'json' | 'query';
interface FormTarget {
  host: 'pro' | 'book';
  method: 'get' | 'post';
  path: () => string;
  as: Encoding;
  fields: Record<string, readonly unknown[]>;
  /** The dashboard's forms: the owner's session cookie and the form token, sent with every post. */
  signedIn?: boolean;
}

/** The owner the dashboard's forms are sent as (the first cleaner's), and their session once signed in. */
const DASHBOARD_OWNER = 'fuzz.owner@fuzz.example';
let session = { cookie: '', csrf: '' };

const hostileText = fc.constantFrom(
  'a\u0000b',
  '\u0000',
  'x\ud800',
  '\udc00',
  '%00',
  '\u202eevil',
  'x'.repeat(5000),
  '',
  ' ',
  '<script>',
  "'; --",
  'Evil\r\nBcc: x@y.example',
  'a\rb',
  'a\nb',
  'a\tb',
  'a\u0085b',
  'a\u2028b',
  'a\u2029b',
  'x\u2066y\u2069',
  'esc\u001b[2J',
);
/** A field's value: mostly one of its plausible ones, sometimes hostile text, a list (a repeated key), a number, an object, or deep nesting. */
const fieldValue = (plausible: readonly unknown[], as: Encoding): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...plausible) },
    { weight: 3, arbitrary: hostileText },
    { weight: 1, arbitrary: fc.array(fc.oneof(hostileText, fc.constantFrom(...plausible)), { minLength: 2, maxLength: 3 }) },
    { weight: 1, arbitrary: as === 'json' ? fc.constantFrom(null, 0, 1e308, true, {}, { a: 'b' }, DEEP, nested(40)) : fc.constantFrom('1e999', '[[[[', '{}') },
  );

const formOf = (t: FormTarget): fc.Arbitrary<Record<string, unknown>> =>
  fc.record(Object.fromEntries(Object.entries(t.fields).map(([k, values]) => [k, fieldValue(values, t.as)])), { requiredKeys: [] });

/** A form body or query: a list is the key repeated; text is percent-encoded as a browser would, a lone surrogate as broken UTF-8. */
const formBody = (input: Record<string, unknown>) =>
  Object.entries(input)
    .flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((item) => `${encode(k)}=${encode(asText(item))}`))
    .join('&');

async function sendForm(t: FormTarget, input: Record<string, unknown>, lie: Lie) {
  const api = hosts[t.host].api;
  if (t.method === 'get') return api.get(`${t.path()}?${formBody(input)}`);
  const type = t.as === 'json' ? 'application/json' : 'application/x-www-form-urlencoded';
  let req = api.post(t.path()).set('Content-Type', lie === 'charset' ? `${type}; charset=latin9` : type);
  if (lie && lie !== 'charset') req = req.set('Content-Encoding', lie);
  if (t.signedIn) {
    req = req.set('Cookie', session.cookie);
    input = { ...input, csrf: session.csrf };
  }
  return req.send(t.as === 'json' ? asJson(input) : formBody(input));
}

describe('fuzzing the forms, pages and OAuth endpoints', () => {
  let targets: FormTarget[];
  beforeAll(async () => {
    // The owner signs in to the dashboard first, before the sign-in forms are fuzzed.
    await h.pro.post('/dashboard/code').type('form').send({ email: DASHBOARD_OWNER }).expect(303);
    const verified = await h.pro
      .post('/dashboard/verify')
      .type('form')
      .send({ email: DASHBOARD_OWNER, code: await signInCodeSentTo(h.t.db, DASHBOARD_OWNER) })
      .expect(303);
    const cookie = String((verified.headers['set-cookie'] as unknown as string[])[0]).split(';')[0]!;
    const page = await h.pro.get('/dashboard').set('Cookie', cookie).expect(200);
    session = { cookie, csrf: /name="csrf" value="([^"]+)"/.exec(page.text)![1]! };
    const redirect = 'http://127.0.0.1:9/cb';
    const client = await h.book
      .post('/register')
      .send({ client_name: 'Fuzzer', redirect_uris: [redirect] })
      .expect(201);
    const clientId = client.body.client_id as string;
    const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
    const start = await h.book
      .get('/authorize')
      .query({ response_type: 'code', client_id: clientId, redirect_uri: redirect, code_challenge: challenge, code_challenge_method: 'S256', state: 's' });
    const requestId = /name="request_id" value="([^"]+)"/.exec(start.text)?.[1] ?? 'azr_missing';
    const email = ['ana@example.com', 'a@b.co', 'not-an-email', 'nul\u0000@example.com', 'zo\ud800@example.com'];
    const code = ['123456', '000000', '12345'];
    const oauth = (host: 'pro' | 'book'): FormTarget[] => [
      {
        host,
        method: 'get',
        path: () => '/authorize',
        as: 'query',
        fields: {
          response_type: ['code', 'token'],
          client_id: [clientId, 'front-desk', 'https://client.example/meta.json'],
          redirect_uri: [redirect, 'https://evil.example/cb'],
          code_challenge: [challenge, 'short'],
          code_challenge_method: ['S256', 'plain'],
          state: ['s', 'x'.repeat(600)],
          scope: ['read', 'read write', 'admin'],
          resource: ['http://book.test/mcp', 'http://pro.test/mcp'],
        },
      },
      { host, method: 'post', path: () => '/authorize/email', as: 'form', fields: { request_id: [requestId, 'azr_nope'], email } },
      { host, method: 'post', path: () => '/authorize/code', as: 'form', fields: { request_id: [requestId, 'azr_nope'], email, code } },
      {
        host,
        method: 'post',
        path: () => '/authorize/consent',
        as: 'form',
        fields: { request_id: [requestId, 'azr_nope'], decision: ['allow', 'deny', 'maybe'] },
      },
      {
        host,
        method: 'post',
        path: () => '/register',
        as: 'json',
        fields: {
          client_name: ['Fuzz Client', 'Front Desk'],
          redirect_uris: [[redirect], ['https://a.example/cb'], 'not-a-list'],
          grant_types: [['authorization_code']],
        },
      },
      {
        host,
        method: 'post',
        path: () => '/token',
        as: 'form',
        fields: {
          grant_type: ['authorization_code', 'refresh_token', 'password'],
          client_id: [clientId, 'front-desk'],
          code: ['fdc_nope', ''],
          redirect_uri: [redirect],
          code_verifier: ['v'.repeat(43)],
          refresh_token: ['fdr_nope'],
        },
      },
      { host, method: 'post', path: () => '/revoke', as: 'form', fields: { token: ['fdr_nope', 'x.y.z'], token_type_hint: ['refresh_token', 'access_token'] } },
    ];
    const business = {
      name: ['Fuzz Cleaning'],
      timezone: ['America/New_York', 'Mars/Base'],
      zips: ['10001', '1'],
      service_zips: [['10001']],
      phone: ['212 555 0100'],
      website: ['https://a.example'],
    };
    targets = [
      { host: 'pro', method: 'post', path: () => '/key/code', as: 'form', fields: { email } },
      { host: 'pro', method: 'post', path: () => '/key/verify', as: 'form', fields: { email, code } },
      { host: 'pro', method: 'post', path: () => '/key/api/code', as: 'json', fields: { email } },
      { host: 'pro', method: 'post', path: () => '/key/api/keys', as: 'json', fields: { email, code } },
      { host: 'pro', method: 'post', path: () => '/dashboard/code', as: 'form', fields: { email } },
      { host: 'pro', method: 'post', path: () => '/dashboard/verify', as: 'form', fields: { email, code } },
      { host: 'pro', method: 'post', path: () => '/signup/code', as: 'form', fields: { email } },
      { host: 'pro', method: 'post', path: () => '/signup/business', as: 'form', fields: { email, code, ...business } },
      { host: 'pro', method: 'post', path: () => '/signup/api/code', as: 'json', fields: { email } },
      { host: 'pro', method: 'post', path: () => '/signup/api/business', as: 'json', fields: { email, code, ...business } },
      {
        host: 'book',
        method: 'get',
        path: () => '/find',
        as: 'query',
        fields: { zip: ['10001', '99999'], bedrooms: ['1', '2', 'x'], bathrooms: ['1'], date: ['2026-11-24', 'tomorrow'] },
      },
      {
        host: 'book',
        method: 'post',
        path: () => `/book/${ids.cleaner_id![1]!}`,
        as: 'form',
        fields: {
          start: ['2026-11-25T11:00:00-05:00', 'soon'],
          bedrooms: ['1', '2', 'x'],
          bathrooms: ['1'],
          add_ons: ['oven', 'pool'],
          customer_name: ['Fu Zz'],
          customer_email: email,
          customer_phone: ['212 555 0100'],
          address: ['1 Fuzz St'],
          zip: ['10001'],
          notes: ['Gate 12\r\nRing twice'],
          access_details: ['Key under the mat'],
          expected_total: ['120', '1'],
          // Without a hold the form holds its time; with one no one holds, it is refused in words.
          hold_id: ['', 'hold_nope', 'x'],
        },
      },
      {
        host: 'book',
        method: 'post',
        path: () => `/book/${ids.cleaner_id![1]!}/another-time`,
        as: 'form',
        fields: { hold_id: ['hold_nope', ''], bedrooms: ['2', 'x'], bathrooms: ['1'], customer_name: ['Fu Zz'], notes: ['Gate 12\r\nRing twice'] },
      },
      // The owner's forms, which run the operations with what was typed.
      {
        host: 'pro',
        method: 'post',
        path: () => '/dashboard/profile',
        as: 'form',
        signedIn: true,
        fields: {
          name: ['Fuzz Cleaning'],
          phone: ['212 555 0100', ''],
          email: ['desk@fuzz.example', ''],
          website: ['https://fuzz.example', ''],
          service_zips: ['10001'],
        },
      },
      { host: 'pro', method: 'post', path: () => '/dashboard/crews', as: 'form', signedIn: true, fields: { name: ['Fuzz Night Crew'] } },
      {
        host: 'pro',
        method: 'post',
        path: () => `/dashboard/crews/${ids.crew_id![0]!}/name`,
        as: 'form',
        signedIn: true,
        fields: { name: ['Fuzz Day Crew'] },
      },
      {
        host: 'pro',
        method: 'post',
        path: () => '/dashboard/time-off',
        as: 'form',
        signedIn: true,
        fields: { start: ['2027-06-01', '2027-06-02'], end: ['2027-06-02'], note: ['Holiday', ''] },
      },
      {
        host: 'pro',
        method: 'post',
        path: () => '/dashboard/add-ons',
        as: 'form',
        signedIn: true,
        fields: { rows: ['1'], addon_name_0: ['oven'], addon_label_0: ['Inside the oven'], addon_price_0: ['25'], addon_minutes_0: ['30'] },
      },
      {
        host: 'pro',
        method: 'post',
        path: () => '/dashboard/webhooks',
        as: 'form',
        signedIn: true,
        fields: { url: ['http://127.0.0.1:9/form-hook', 'https://hooks.example/a'], events: ['all'] },
      },
      {
        host: 'book',
        method: 'post',
        path: () => `/manage/${ids.manage_token![0]!}/cancel`,
        as: 'form',
        fields: { confirm: ['yes', 'no'], visit: ['1', 'x'], scope: ['later', 'one'] },
      },
      {
        host: 'book',
        method: 'post',
        path: () => `/manage/${ids.manage_token![0]!}/move`,
        as: 'form',
        fields: { start: ['2026-11-27T10:00:00-05:00', 'later'], visit: ['1'], scope: ['one'] },
      },
      ...oauth('pro'),
      ...oauth('book'),
    ];
  });

  it('never answers 5xx, whatever the fields and however the body lies', async () => {
    const failures: string[] = [];
    let sent = 0;
    for (const [i, t] of targets.entries()) {
      await fc.assert(
        fc.asyncProperty(formOf(t), LIES, async (input, lie) => {
          const res = await sendForm(t, input, t.method === 'post' ? lie : null);
          sent += 1;
          tally.sent += 1;
          if (res.status >= 400 && res.status < 500) tally.refused += 1;
          if (res.status >= 500) tally.failed += 1;
          // Inputs with text PostgreSQL cannot store are marked, so a 5xx of another cause stands out.
          const unstorable = /\\u0000|\\ud[89ab]|\\ud[c-f]/.test(asJson(input)) ? '[unstorable] ' : '';
          if (res.status >= 500)
            failures.push(
              `${unstorable}${t.host} ${t.method.toUpperCase()} ${t.path()} ${lie ?? ''} ${asJson(input).slice(0, 200)} -> ${res.status} ${res.text.slice(0, 200)}`,
            );
        }),
        { numRuns: Math.ceil(RUNS / 2), seed: SEED + 100 + i },
      );
    }
    expect(sent).toBe(targets.length * Math.ceil(RUNS / 2));
    expect(failures).toEqual([]);
    await nothingStoredBreaksTheRules();
  });
});
