// add_webhook, update_webhook, remove_webhook, list_webhooks, rotate_webhook_secret and
// test_webhook (src/operations/webhooks.ts), and delivery from the feed by the worker
// (packages/workers/src/webhooks.ts) to a real receiver that verifies every signature.
import { KeySealer } from '@frontdesk/oauth';
import { resealWebhookSecrets } from '@frontdesk/use-cases';
import { TEST_KEY_SEALER, newPro, proDeskHarnessPerFile, validBooking } from '@frontdesk/dev-env/pro-desk';
import { Receiver, webhookSender } from '@frontdesk/dev-env/webhook-receiver';

const h = proDeskHarnessPerFile();
type Json = Record<string, any>;
type Auth = Record<string, string>;

const post = (auth: Auth, op: string, body: object) => h.api.post(`/api/v1/${op}`).set(auth).send(body);
const get = (auth: Auth, op: string, query: object = {}) => h.api.get(`/api/v1/${op}`).set(auth).query(query);
const later = (minutes: number) => (h.clock.now = new Date(h.clock.now.getTime() + minutes * 60_000));

let receiver: Receiver;
beforeEach(async () => {
  receiver = await new Receiver().start();
});
afterEach(() => receiver.stop());

/** The webhook worker of each test, on its clock (see webhookSender). */
let send: ReturnType<typeof webhookSender>;
beforeEach(() => {
  send = webhookSender(h);
});
afterEach(() => send.close());

/** Books a job (an event for the webhook), delivers what is due, and expects the receiver's `request`th request to carry `signatures` signatures that verify. */
async function deliveredSigned(auth: Auth, over: Record<string, unknown>, { request, signatures }: { request: number; signatures: number }) {
  await post(auth, 'book_job', validBooking(over)).expect(200);
  await send.tick();
  expect(String(receiver.got[request]!.headers['webhook-signature']).split(' ')).toHaveLength(signatures);
  expect(receiver.got[request]!.verified).toBe(true);
}

async function withWebhook(kinds?: string[]) {
  const pro = await newPro(h);
  const added = (await post(pro.auth, 'add_webhook', { url: receiver.url, ...(kinds ? { kinds } : {}) }).expect(200)).body;
  receiver.secrets = [added.secret];
  return { ...pro, webhook: added as Json };
}

describe('webhooks of a business', () => {
  it('adds one with a secret shown once, lists it without the secret, and refuses what it cannot send to', async () => {
    const { auth, webhook } = await withWebhook();
    expect(webhook).toMatchObject({ webhook_id: expect.stringMatching(/^wh_/), url: receiver.url, kinds: null, state: 'active', behind: 0 });
    expect(webhook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(webhook.secret.endsWith(webhook.secret_ends_with)).toBe(true);
    const listed = (await get(auth, 'list_webhooks').expect(200)).body.webhooks;
    expect(listed).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(webhook.secret);
    const row = await h.t.db.selectFrom('webhooks').selectAll().executeTakeFirstOrThrow();
    expect(row.secret_sealed.toString('latin1')).not.toContain(webhook.secret.slice(6, 20));

    const refusals: [object, RegExp][] = [
      [{ url: 'ftp://example.com/x' }, /url must be a full web address starting with https/],
      [{ url: 'http://example.com/hooks' }, /url must start with https:\/\//],
      [{ url: 'https://10.0.0.5/hooks' }, /10\.0\.0\.5 is a private or local one/],
      [{ url: 'https://[::ffff:192.168.1.1]/hooks' }, /private or local/],
      [{ url: 'https://user:pw@example.com/hooks' }, /must not hold a user name/],
      [{ url: receiver.url }, /already sends to that url/],
      [
        { url: 'https://example.com/a', kinds: ['booking.created', 'booking.exploded'] },
        /"booking\.exploded", which the feed never sends; the kinds are booking.created/,
      ],
      [{ url: 42 }, /url/],
    ];
    for (const [body, words] of refusals)
      expect([body, (await post(auth, 'add_webhook', body).expect(400)).body.error]).toEqual([body, expect.stringMatching(words)]);
    for (let i = 2; i <= 10; i++) await post(auth, 'add_webhook', { url: `https://hooks${i}.example.com/in` }).expect(200);
    expect((await post(auth, 'add_webhook', { url: 'https://hooks11.example.com/in' }).expect(400)).body.error).toMatch(/at most 10 webhooks/);
    expect((await get(auth, 'list_webhooks').expect(200)).body.webhooks).toHaveLength(10);

    // Another business sees none of them.
    const other = await newPro(h);
    expect((await get(other.auth, 'list_webhooks').expect(200)).body.webhooks).toEqual([]);
    expect((await post(other.auth, 'remove_webhook', { webhook_id: webhook.webhook_id }).expect(404)).body.error).toMatch(/No webhook with id/);
    expect((await post(other.auth, 'test_webhook', { webhook_id: webhook.webhook_id }).expect(404)).body.error).toMatch(/No webhook with id/);
  });

  it('takes a host written with a trailing dot as the same address', async () => {
    const { auth } = await newPro(h);
    const first = (await post(auth, 'add_webhook', { url: 'https://hooks.example.com./in' }).expect(200)).body;
    expect(first.url).toBe('https://hooks.example.com/in');
    const again = await post(auth, 'add_webhook', { url: 'https://hooks.example.com/in' }).expect(400);
    expect(again.body.error).toMatch(/already sends/);
  });

  it('sends a signed ping on test_webhook and says what the receiver answered', async () => {
    const { auth, pro, webhook } = await withWebhook();
    const ok = (await post(auth, 'test_webhook', { webhook_id: webhook.webhook_id }).expect(200)).body;
    expect(ok).toMatchObject({ received: true, status: 200, answer: 'thanks', message: expect.stringMatching(/answered 200: it works/) });
    expect(receiver.got[0]).toMatchObject({ verified: true, body: { business_id: pro.id, kind: 'ping' } });
    expect(receiver.got[0]!.headers['webhook-id']).toMatch(/^ping_/);
    receiver.script = [503];
    const bad = (await post(auth, 'test_webhook', { webhook_id: webhook.webhook_id }).expect(200)).body;
    expect(bad).toMatchObject({ received: false, status: 503, answer: 'not now' });
    await receiver.stop();
    const down = (await post(auth, 'test_webhook', { webhook_id: webhook.webhook_id }).expect(200)).body;
    expect(down).toMatchObject({ received: false, status: null, message: expect.stringMatching(/could not be reached: the connection was refused/) });
    receiver = await new Receiver().start(); // for afterEach
  });

  it('delivers every event of the feed in order, exactly as updates shows it, with the business and cursor, each id signed', async () => {
    const { auth, pro, webhook } = await withWebhook();
    const job = (await post(auth, 'book_job', validBooking()).expect(200)).body;
    await post(auth, 'reschedule_job', { booking_id: job.booking_id, start: '2026-11-24T13:00:00-05:00' }).expect(200);
    await post(auth, 'cancel_job', { booking_id: job.booking_id }).expect(200);
    await send.tick();
    const feed = (await get(auth, 'updates', { since: 0 }).expect(200)).body.events as Json[];
    expect(feed.map((e) => e.kind)).toEqual(['booking.created', 'booking.rescheduled', 'booking.cancelled']);
    expect(receiver.got.map((g) => g.body)).toEqual(feed.map((e) => ({ business_id: pro.id, cursor: e.seq, ...e })));
    expect(receiver.got.every((g) => g.verified)).toBe(true);
    expect(receiver.got.map((g) => g.headers['webhook-id'])).toEqual(feed.map((e) => `evt_${pro.id}_${e.seq}`));
    const rescheduled = receiver.got[1]!.body;
    expect(rescheduled).toMatchObject({ from: expect.any(String), to: expect.any(String) });
    const [listed] = (await get(auth, 'list_webhooks').expect(200)).body.webhooks;
    expect(listed).toMatchObject({
      webhook_id: webhook.webhook_id,
      state: 'active',
      behind: 0,
      cursor: feed.at(-1)!.seq,
      last_success_at: expect.any(String),
    });
  });

  it('sends only the kinds asked for, and passes over the rest without holding the line', async () => {
    const { auth } = await withWebhook(['booking.cancelled']);
    const job = (await post(auth, 'book_job', validBooking()).expect(200)).body;
    await post(auth, 'cancel_job', { booking_id: job.booking_id }).expect(200);
    await send.tick();
    expect(receiver.got.map((g) => g.body.kind)).toEqual(['booking.cancelled']);
    const [listed] = (await get(auth, 'list_webhooks').expect(200)).body.webhooks;
    expect(listed.behind).toBe(0);
  });

  it('sends a no-show as booking.no_show, written with the report, to a webhook that takes it, as updates shows it', async () => {
    const { auth, pro } = await withWebhook(['booking.no_show']);
    const job = (await post(auth, 'book_job', validBooking()).expect(200)).body;
    h.clock.now = new Date(new Date(job.start).getTime() + 10 * 60_000);
    await post(auth, 'report_no_show', { booking_id: job.booking_id }).expect(200);
    const feed = (await get(auth, 'updates', { since: 0 }).expect(200)).body.events as Json[];
    const noShow = feed.find((e) => e.kind === 'booking.no_show')!;
    expect(noShow).toMatchObject({ booking_id: job.booking_id, customer_name: job.customer.name, fee_waived: false, crew_name: job.crew_name });
    expect(noShow.message).toMatch(/^No-show recorded for /);
    await send.tick();
    expect(receiver.got.map((g) => g.body)).toEqual([{ business_id: pro.id, cursor: noShow.seq, ...noShow }]);
    expect(receiver.got[0]!.verified).toBe(true);
  });

  it('retries a failing receiver with backoff, marks it failing in the feed but never switches it off, and catches up in order', async () => {
    const { auth, webhook } = await withWebhook();
    await post(auth, 'book_job', validBooking({ customer_name: 'First' })).expect(200);
    await post(auth, 'book_job', validBooking({ customer_name: 'Second', start: '2026-11-24T13:00:00-05:00' })).expect(200);
    receiver.script = [500, 0, 500, 502, 500];
    const waits: number[] = [];
    for (let i = 0; i < 5; i++) {
      await send.tick();
      const [w] = (await get(auth, 'list_webhooks').expect(200)).body.webhooks;
      waits.push(new Date(w.next_try_at).getTime() - h.clock.now.getTime());
      await send.tick(); // not due yet: nothing is sent
      h.clock.now = new Date(new Date(w.next_try_at).getTime() + 1000); // shown to the second
    }
    expect(receiver.got).toHaveLength(5);
    // Every try was the first event again, under the same id.
    expect(new Set(receiver.got.map((g) => g.headers['webhook-id'])).size).toBe(1);
    for (let i = 1; i < waits.length; i++) expect(waits[i]!).toBeGreaterThan(waits[i - 1]! * 0.7);
    const [failing] = (await get(auth, 'list_webhooks').expect(200)).body.webhooks;
    expect(failing).toMatchObject({ state: 'failing', behind: 3, last_failure: 'The receiver answered 500.' });
    const feed = (await get(auth, 'updates', { since: 0 }).expect(200)).body.events as Json[];
    expect(feed.at(-1)).toMatchObject({ kind: 'webhook.failing', webhook_id: webhook.webhook_id, attempts: 5 });
    expect(feed.at(-1)!.message).toMatch(/failed 5 times in a row/);

    // It answers again: everything it missed arrives once, in order, then the recovery is told.
    await post(auth, 'update_webhook', { webhook_id: webhook.webhook_id, paused: false }).expect(200); // "retry now"
    await send.tick();
    await send.tick();
    const acked = receiver.acked().map((g) => g.body.kind);
    expect(acked).toEqual(['booking.created', 'booking.created', 'webhook.failing', 'webhook.recovered']);
    const cursors = receiver.acked().map((g) => g.body.cursor as number);
    expect(cursors).toEqual([...cursors].sort((a, b) => a - b));
    const [back] = (await get(auth, 'list_webhooks').expect(200)).body.webhooks;
    expect(back).toMatchObject({ state: 'active', behind: 0 });
  });

  it('takes update_webhook with only webhook_id as the documented "retry now": a failing receiver is tried at once, nothing else changes, and its refusals point at list_webhooks', async () => {
    const { auth, webhook } = await withWebhook(['booking.created']);
    await post(auth, 'book_job', validBooking()).expect(200);
    receiver.script = [500];
    await send.tick();
    const [waiting] = (await get(auth, 'list_webhooks').expect(200)).body.webhooks;
    expect(new Date(waiting.next_try_at).getTime()).toBeGreaterThan(h.clock.now.getTime());
    await send.tick(); // its next try is not due: nothing is sent
    expect(receiver.got).toHaveLength(1);

    const retried = (await post(auth, 'update_webhook', { webhook_id: webhook.webhook_id }).expect(200)).body;
    expect(retried).toMatchObject({ webhook_id: webhook.webhook_id, url: webhook.url, kinds: ['booking.created'], state: 'active', behind: 1 });
    expect(new Date(retried.next_try_at).getTime()).toBeLessThanOrEqual(h.clock.now.getTime());
    await send.tick();
    expect(receiver.acked().map((g) => g.body.kind)).toEqual(['booking.created']);
    expect((await get(auth, 'list_webhooks').expect(200)).body.webhooks[0]).toMatchObject({ behind: 0, kinds: ['booking.created'], state: 'active' });

    const unknown = await post(auth, 'update_webhook', { webhook_id: 'wh_doesnotexist' }).expect(404);
    expect(unknown.body.error).toBe('No webhook with id wh_doesnotexist in this business; list_webhooks lists them.');
    const other = await newPro(h);
    expect((await post(other.auth, 'update_webhook', { webhook_id: webhook.webhook_id }).expect(404)).body.error).toMatch(/list_webhooks lists them/);
  });

  it('holds events while paused and sends them once resumed; removes an endpoint that answers 410 and says so', async () => {
    const { auth, webhook } = await withWebhook();
    await post(auth, 'update_webhook', { webhook_id: webhook.webhook_id, paused: true }).expect(200);
    await post(auth, 'book_job', validBooking()).expect(200);
    await send.tick();
    expect(receiver.got).toHaveLength(0);
    const [paused] = (await get(auth, 'list_webhooks').expect(200)).body.webhooks;
    expect(paused).toMatchObject({ state: 'paused', behind: 1 });
    await post(auth, 'update_webhook', { webhook_id: webhook.webhook_id, paused: false }).expect(200);
    await send.tick();
    expect(receiver.acked()).toHaveLength(1);

    receiver.script = [410];
    await post(auth, 'book_job', validBooking({ start: '2026-11-24T13:00:00-05:00' })).expect(200);
    await send.tick();
    expect((await get(auth, 'list_webhooks').expect(200)).body.webhooks).toEqual([]);
    const feed = (await get(auth, 'updates', { since: 0 }).expect(200)).body.events as Json[];
    expect(feed.at(-1)).toMatchObject({ kind: 'webhook.removed', webhook_id: webhook.webhook_id, message: expect.stringMatching(/410 Gone/) });
  });

  it('stops a catch-up already under way when the endpoint is paused or moved: nothing more goes to the old address, and the new one gets all that was not received', async () => {
    const until = async (done: () => boolean) => {
      for (let i = 0; i < 500 && !done(); i++) await new Promise((r) => setTimeout(r, 10));
    };
    const starts = ['2026-11-24T09:00:00-05:00', '2026-11-24T13:00:00-05:00', '2026-11-25T09:00:00-05:00', '2026-11-25T13:00:00-05:00'];
    const moved = await new Receiver().start('/moved');
    try {
      for (const change of ['pause', 'url'] as const) {
        const { auth, webhook } = await withWebhook();
        moved.secrets = [webhook.secret];
        for (const start of starts) await post(auth, 'book_job', validBooking({ start })).expect(200);
        receiver.got.length = 0;
        receiver.delayMs = 300;
        const catchUp = send.tick();
        await until(() => receiver.got.length >= 1);
        await post(auth, 'update_webhook', { webhook_id: webhook.webhook_id, ...(change === 'pause' ? { paused: true } : { url: moved.url }) }).expect(200);
        await catchUp;
        receiver.delayMs = 0;
        // Only the one already on the wire reached the old address.
        expect([change, receiver.got.length]).toEqual([change, 1]);
        if (change === 'url') {
          await send.tick();
          const feed = (await get(auth, 'updates', { since: 0 }).expect(200)).body.events as Json[];
          expect(moved.acked().map((g) => g.body.cursor)).toEqual(feed.map((e) => e.seq));
          expect(moved.acked().every((g) => g.verified)).toBe(true);
        } else {
          expect((await get(auth, 'list_webhooks').expect(200)).body.webhooks[0]).toMatchObject({ state: 'paused', behind: 4 });
        }
      }
    } finally {
      await moved.stop();
    }
  });

  it('keeps no secret in the stored answer of an add or a rotation, and answers a retry with the secret that signs now', async () => {
    const pro = await newPro(h);
    const keyed = (key: string) => ({ ...pro.auth, 'Idempotency-Key': key });
    const added = (await h.api.post('/api/v1/add_webhook').set(keyed('add-1')).send({ url: receiver.url }).expect(200)).body;
    const again = await h.api.post('/api/v1/add_webhook').set(keyed('add-1')).send({ url: receiver.url }).expect(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(added);
    const rotated = (await h.api.post('/api/v1/rotate_webhook_secret').set(keyed('rotate-1')).send({ webhook_id: added.webhook_id }).expect(200)).body;
    const retried = (await h.api.post('/api/v1/rotate_webhook_secret').set(keyed('rotate-1')).send({ webhook_id: added.webhook_id }).expect(200)).body;
    expect(retried).toEqual(rotated);
    expect(rotated.secret).not.toBe(added.secret);
    const stored = await h.t.db.selectFrom('idempotency_keys').select('response').where('key', 'in', ['add-1', 'rotate-1']).execute();
    expect(stored).toHaveLength(2);
    for (const row of stored) expect(JSON.stringify(row.response)).not.toMatch(/whsec_/);
    // The add retried after the rotation shows the secret that signs now, not the first one.
    expect((await h.api.post('/api/v1/add_webhook').set(keyed('add-1')).send({ url: receiver.url }).expect(200)).body.secret).toBe(rotated.secret);
  });

  it('gives a test ping 5 seconds, inside the request deadline, and says the receiver did not answer in time', async () => {
    const { auth, webhook } = await withWebhook();
    receiver.delayMs = 7000;
    const res = await post(auth, 'test_webhook', { webhook_id: webhook.webhook_id }).expect(200);
    expect(res.body).toMatchObject({ received: false, status: null, message: expect.stringMatching(/within 5 seconds/) });
    receiver.delayMs = 0;
  });

  it('rotates the secret: the new one shown once, and both old and new sign for 24 hours, then only the new one', async () => {
    const { auth, webhook } = await withWebhook();
    const rotated = (await post(auth, 'rotate_webhook_secret', { webhook_id: webhook.webhook_id }).expect(200)).body;
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(webhook.secret);
    expect(rotated.previous_secret_until).toMatch(/^2026-11-24T07:00:00/);
    await deliveredSigned(auth, {}, { request: 0, signatures: 2 });
    // Each secret alone verifies the request.
    const { Webhook } = await import('standardwebhooks');
    const raw = JSON.stringify(receiver.got[0]!.body);
    for (const s of [webhook.secret, rotated.secret])
      expect(() => new Webhook(s).verify(raw, receiver.got[0]!.headers as Record<string, string>)).not.toThrow();

    later(25 * 60);
    receiver.secrets = [rotated.secret];
    await deliveredSigned(auth, { start: '2026-11-26T09:00:00-05:00' }, { request: 1, signatures: 1 });
  });

  it('rotated twice within a day (the first answer lost), still signs with the first secret until its time is up', async () => {
    const { auth, webhook } = await withWebhook();
    await post(auth, 'rotate_webhook_secret', { webhook_id: webhook.webhook_id }).expect(200);
    later(60);
    const second = (await post(auth, 'rotate_webhook_secret', { webhook_id: webhook.webhook_id }).expect(200)).body;
    // The receiver still has only the secret it was first given.
    receiver.secrets = [webhook.secret];
    await deliveredSigned(auth, { start: '2026-11-26T09:00:00-05:00' }, { request: 0, signatures: 3 });
    // A day after it was replaced, the first secret stops; the newest and the one before it go on.
    later(23 * 60 + 1);
    receiver.secrets = [second.secret];
    await deliveredSigned(auth, { start: '2026-11-27T09:00:00-05:00' }, { request: 1, signatures: 2 });
  });

  it('keeps every secret when the key-encryption key is rotated and its secrets sealed again', async () => {
    const { webhook } = await withWebhook();
    const next = new KeySealer(Buffer.alloc(32, 8), [Buffer.alloc(32, 7)]);
    expect(await resealWebhookSecrets(h.t.db, next)).toBeGreaterThanOrEqual(1);
    const row = await h.t.db.selectFrom('webhooks').selectAll().where('id', '=', webhook.webhook_id).executeTakeFirstOrThrow();
    // Only the new key is needed now: the old one can be retired.
    expect(new KeySealer(Buffer.alloc(32, 8)).open(row.secret_sealed, row.id).toString()).toBe(webhook.secret);
    expect(() => TEST_KEY_SEALER.open(row.secret_sealed, row.id)).toThrow();
  });
});
