import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import {
  createDatabase,
  createDb,
  crewsOf,
  deliverOutbox,
  dropDatabase,
  enqueueMail,
  migrateToLatest,
  newId,
  type Db,
  type MailTransport,
} from '@frontdesk/db';
import { DEFAULT_PRICE_LIST, DEFAULT_WEEKLY_HOURS, normalizeJob, priceJob } from '@frontdesk/domain';
import { createBusiness, sendDueCustomerMessages } from '@frontdesk/use-cases';
import { stats } from './host';

/**
 * Routine customer mail (issue 36), measured in this process: 10,000 reminders due at once
 * over 100 businesses, materialized by the messages worker's use case (one transaction per
 * message, under its business's row lock) while the outbox is delivered beside it, against
 * 10,000 plain confirmations queued one transaction each and delivered the same way. Figures:
 * messages a second from the first tick to the last hand-over, and the outbox lag (queued to
 * handed to the transport) p50/p99. The transport only records the time: SMTP itself is not
 * what is measured.
 */
const BUSINESSES = 100;
const JOBS = 100;
const HOUR = 3_600_000;

function jobRow(pro: { id: string; crewId: string }, start: Date, i: number, setAt: Date) {
  const quote = priceJob(normalizeJob({ bedrooms: 0, bathrooms: 1 }), DEFAULT_PRICE_LIST);
  const end = new Date(start.getTime() + quote.duration_minutes * 60_000);
  return {
    id: newId('bk'),
    pro_id: pro.id,
    crew_id: pro.crewId,
    channel: 'pro' as const,
    starts_at: start,
    ends_at: end,
    blocked_until: new Date(end.getTime() + 30 * 60_000),
    customer_name: `Customer ${i}`,
    customer_email: `customer${i}@example.com`,
    address: '1 Main St',
    zip: '10001',
    bedrooms: 0,
    bathrooms: 1,
    clean_type: 'standard' as const,
    frequency: 'once' as const,
    add_ons: [],
    pets: false,
    price_cents: quote.total_cents,
    quote: JSON.stringify(quote),
    created_at: setAt,
    updated_at: setAt,
  };
}

/** 10,000 jobs whose one reminder (168 h before) has come due by `now`. */
async function seedDue(db: Db, now: Date): Promise<void> {
  const setAt = new Date(now.getTime() - 200 * HOUR);
  for (let p = 0; p < BUSINESSES; p++) {
    const { pro } = await createBusiness(db, {
      name: `Reminding ${p}`,
      timezone: 'America/New_York',
      service_zips: ['10001'],
      weekly_hours: DEFAULT_WEEKLY_HOURS,
    });
    await sql`UPDATE pros SET customer_reminder_hours = '{168}' WHERE id = ${pro.id}`.execute(db);
    const crewId = (await crewsOf(db, pro.id))[0]!.id;
    const rows = Array.from({ length: JOBS }, (_, j) => jobRow({ id: pro.id, crewId }, new Date(now.getTime() + HOUR + j * 1.5 * HOUR), p * JOBS + j, setAt));
    await db.insertInto('bookings').values(rows).execute();
  }
}

/** Delivers the outbox until `done()` and it is empty, recording when each mail was handed over, by address. */
function deliverer(db: Db) {
  const handed = new Map<string, number>();
  const transport: MailTransport = { send: (m) => (handed.set(m.to, Date.now()), Promise.resolve()) };
  let stop = false;
  const running = (async () => {
    for (;;) {
      const n = await deliverOutbox(db, transport, 20);
      if (n === 0 && stop) return;
      if (n === 0) await new Promise((r) => setTimeout(r, 5));
    }
  })();
  return { handed, finish: async () => ((stop = true), await running) };
}

async function queuedAt(db: Db): Promise<Map<string, number>> {
  const rows = await db.selectFrom('outbox').select(['to_address', 'created_at']).execute();
  return new Map(rows.map((r) => [r.to_address, r.created_at.getTime()]));
}

function figures(handed: Map<string, number>, queued: Map<string, number>, startedAt: number) {
  const lags = [...handed].map(([to, at]) => at - queued.get(to)!);
  const last = Math.max(...handed.values());
  return { messages: handed.size, per_second: Math.round(handed.size / ((last - startedAt) / 1000)), lag_ms: stats(lags) };
}

async function reminders(db: Db) {
  const now = new Date();
  await seedDue(db, now);
  const out = deliverer(db);
  const startedAt = Date.now();
  // The worker's tick, again and again as its ticker would, each with the time it starts.
  while ((await sendDueCustomerMessages(db, { bookingUrl: 'https://book.example' }, new Date())).reminders > 0);
  await out.finish();
  return figures(out.handed, await queuedAt(db), startedAt);
}

async function confirmations(db: Db) {
  await sql`DELETE FROM outbox`.execute(db);
  const out = deliverer(db);
  const startedAt = Date.now();
  for (let i = 0; i < BUSINESSES * JOBS; i++) {
    await db.transaction().execute((trx) => enqueueMail(trx, { to: `confirm${i}@example.com`, subject: 'Booked', text: 'Booked.', now: new Date() }));
  }
  await out.finish();
  return figures(out.handed, await queuedAt(db), startedAt);
}

export async function reminderBench(adminUrl: string) {
  const name = `fd_bench_reminders_${randomBytes(4).toString('hex')}`;
  const url = await createDatabase(adminUrl, name);
  const db = createDb(url, { maxConnections: 6 });
  try {
    await migrateToLatest(db);
    const reminded = await reminders(db);
    const confirmed = await confirmations(db);
    return { reminders: reminded, confirmations: confirmed };
  } finally {
    await db.destroy();
    await dropDatabase(adminUrl, name);
  }
}

export function reminderLines(r: Awaited<ReturnType<typeof reminderBench>>): string[] {
  const { reminders: m, confirmations: c } = r;
  return [
    `Reminders, ${m.messages} due at once over ${BUSINESSES} businesses: ${m.per_second} materialized and handed over a second; outbox lag p50/p99 ${m.lag_ms.p50}/${m.lag_ms.p99} ms.`,
    `  Beside ${c.messages} plain confirmations queued one transaction each: ${c.per_second} a second, lag p50/p99 ${c.lag_ms.p50}/${c.lag_ms.p99} ms.`,
  ];
}

if (require.main === module) {
  void (async () => {
    const { startTestServer } = await import('@frontdesk/db/testing');
    const server = await startTestServer();
    try {
      process.stdout.write(`${reminderLines(await reminderBench(server.adminUrl)).join('\n')}\n`);
    } finally {
      await server.stop();
    }
  })();
}
