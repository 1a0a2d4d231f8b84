// The dashboard's webhooks page (src/dashboard/webhook-*.ts): adding one (refused as typed),
// its secret shown by one page only, a test event with what a real receiver answered, pause,
// retry, a new secret, removing one, and another business's webhook.
import { dashboardSession, proDeskHarnessPerFile, newPro, validBooking, postDashboardForm, pageText } from '@frontdesk/dev-env/pro-desk';
import { Receiver, webhookSender } from '@frontdesk/dev-env/webhook-receiver';

const h = proDeskHarnessPerFile();

let receiver: Receiver;
beforeEach(async () => {
  receiver = await new Receiver().start();
});
afterEach(() => receiver.stop());

let seq = 0;
async function signedIn() {
  const email = `hooks${(seq += 1)}@dash.example`;
  const pro = await newPro(h, { owner_email: email });
  const { cookie, csrf } = await dashboardSession(h, email);
  return { ...pro, cookie, csrf };
}
type Session = Awaited<ReturnType<typeof signedIn>>;

const post = (s: Session, path: string, form: Record<string, string> = {}) => postDashboardForm(h, s, path, form);

/** Follows a form's 303 as a browser does, with the cookies it set; `again` loads the same address once more (a reload). */
async function follow(s: Session, res: { status: number; headers: Record<string, unknown> }) {
  expect(res.status).toBe(303);
  const cookies = ([] as string[]).concat((res.headers['set-cookie'] as string[] | undefined) ?? []).map((c) => c.split(';')[0]!);
  const cookie = [s.cookie, ...cookies].join('; ');
  const location = String(res.headers.location);
  const first = await h.api.get(location).set('Cookie', cookie).expect(200);
  // The browser drops what the first page told it to.
  const dropped = ([] as string[]).concat((first.headers['set-cookie'] as unknown as string[] | undefined) ?? []).map((c) => c.split(';')[0]!);
  const after = [s.cookie, ...cookies.filter((c) => !dropped.some((x) => x.split('=')[0] === c.split('=')[0]))].join('; ');
  return { location, text: first.text, again: async () => (await h.api.get(location).set('Cookie', after).expect(200)).text };
}

const shown = pageText;
/** A webhook's entry in the page's list. */
const entryOf = (page: string, id: string) =>
  /<li class="webhook" id="webhook-[^"]+">[\s\S]*?<\/li>/.exec(page.slice(page.indexOf(`id="webhook-${id}"`) - 40))![0];
const API_WORDS = /\b(webhook_id|list_webhooks|update_webhook|booking\.created|paused|url)\b/;
const secretIn = (page: string) => /id="webhook-secret">(whsec_[^<]+)</.exec(page)?.[1];
const listed = async (s: Session) => (await h.api.get('/api/v1/list_webhooks').set(s.auth).expect(200)).body.webhooks as Record<string, any>[];

describe('the webhooks page', () => {
  it('refuses an address it cannot send to, and events not chosen, keeping what was typed', async () => {
    const s = await signedIn();
    const bad = await post(s, '/dashboard/webhooks', { url: 'http://example.com/hooks', events: 'all' }).expect(400);
    expect(shown(bad.text)).toContain('Address of your receiver must start with https://');
    expect(bad.text).toMatch(/value="http:\/\/example.com\/hooks"/);
    expect(bad.text).toMatch(/id="f-url"[^>]*aria-invalid="true"/);

    const none = await post(s, '/dashboard/webhooks', { url: receiver.url, events: 'chosen' }).expect(400);
    expect(shown(none.text)).toContain('Tick at least one kind of event, or choose all events.');
    expect(none.text).toContain(`value="${receiver.url}"`);
    expect(none.text).toMatch(/value="chosen"\s+checked/);

    const both = await post(s, '/dashboard/webhooks', { url: receiver.url, events: 'all', 'event_booking.cancelled': '1' }).expect(400);
    expect(shown(both.text)).toContain('You ticked some kinds of events but chose all events');
    expect(both.text).toMatch(/name="event_booking.cancelled" value="1"\s+checked/);
    for (const page of [bad.text, none.text, both.text]) expect(shown(page)).not.toMatch(API_WORDS);
    expect(await listed(s)).toEqual([]);

    await post(s, '/dashboard/webhooks', { url: receiver.url, events: 'all' }).expect(303);
    const taken = await post(s, '/dashboard/webhooks', { url: receiver.url, events: 'all' }).expect(400);
    expect(shown(taken.text)).toContain('Your business already sends to that address.');
  });

  it('adds one with its secret on one page only, sends a test event once however often the page is reloaded, pauses, retries, makes a new secret and removes it', async () => {
    const s = await signedIn();
    const added = await follow(
      s,
      await post(s, '/dashboard/webhooks', { url: receiver.url, events: 'chosen', 'event_booking.created': '1', 'event_booking.rescheduled': '1' }),
    );
    const secret = secretIn(added.text)!;
    expect(secret).toMatch(/^whsec_/);
    expect(shown(added.text)).toContain(`Events will be sent to ${receiver.url}.`);
    expect(shown(added.text)).toContain('A job is booked · A job is moved to another time');
    expect(shown(added.text)).toContain('Nothing received yet · no events waiting');
    const reloaded = await added.again();
    expect(secretIn(reloaded)).toBeUndefined();
    expect(reloaded).not.toContain(secret);
    expect(shown(reloaded)).toContain('The secret was shown once and is hidden now.');
    expect(shown(reloaded)).toContain(`Events will be sent to ${receiver.url}.`);
    // Nothing on the reloaded page still asks to copy a secret it no longer shows.
    expect(shown(reloaded)).not.toMatch(/copy it now|Copy its secret/i);
    const [hook] = await listed(s);
    expect(hook).toMatchObject({ kinds: ['booking.created', 'booking.rescheduled'], state: 'active' });

    receiver.secrets = [secret];
    const tested = await follow(s, await post(s, `/dashboard/webhooks/${hook!.webhook_id}/test`));
    // The outcome is in the webhook's own entry, where the page opens: when, delivered, and what it answered.
    expect(tested.location).toMatch(new RegExp(`#webhook-${hook!.webhook_id}$`));
    const outcome = new RegExp(
      `Test event sent to ${receiver.url} at \\w{3}, \\w{3} \\d+, \\d+:\\d\\d [AP]M \\w+: delivered\\. The receiver answered 200: it works\\.`,
    );
    expect(shown(entryOf(tested.text, hook!.webhook_id))).toMatch(outcome);
    expect(shown(entryOf(tested.text, hook!.webhook_id))).toContain('What it answered: thanks');
    expect(shown(await tested.again())).toMatch(outcome);
    expect(receiver.got).toHaveLength(1);
    receiver.script = [503];
    const failed = await follow(s, await post(s, `/dashboard/webhooks/${hook!.webhook_id}/test`));
    expect(shown(entryOf(failed.text, hook!.webhook_id))).toMatch(/: not delivered\. The receiver answered 503, so it would not count as received\./);
    expect(receiver.got).toHaveLength(2);
    expect(receiver.got[0]).toMatchObject({ verified: true, body: { kind: 'ping' } });

    const paused = await follow(s, await post(s, `/dashboard/webhooks/${hook!.webhook_id}/paused`, { paused: 'yes' }));
    expect(shown(paused.text)).toContain(`Paused ${receiver.url}`);
    expect(shown(paused.text)).toMatch(/Paused\. Events wait here/);
    expect(paused.text).toContain('>Resume</button>');
    expect((await listed(s))[0]!.state).toBe('paused');
    await follow(s, await post(s, `/dashboard/webhooks/${hook!.webhook_id}/paused`, { paused: 'no' }));
    expect((await listed(s))[0]!.state).toBe('active');

    const retried = await follow(s, await post(s, `/dashboard/webhooks/${hook!.webhook_id}/retry`));
    expect(shown(retried.text)).toContain(`Trying ${receiver.url} again now`);

    const rotated = await follow(s, await post(s, `/dashboard/webhooks/${hook!.webhook_id}/secret`));
    const second = secretIn(rotated.text)!;
    expect(second).toMatch(/^whsec_/);
    expect(second).not.toBe(secret);
    expect(shown(rotated.text)).toMatch(/has a new secret\. Until \w{3}, \w{3} \d+, .* each event is signed with both/);
    expect(secretIn(await rotated.again())).toBeUndefined();

    const confirm = (await h.api.get(`/dashboard/webhooks/${hook!.webhook_id}/remove`).set('Cookie', s.cookie).expect(200)).text;
    expect(shown(confirm)).toContain(`Front Desk stops sending to ${receiver.url} and forgets it`);
    const removed = await follow(s, await post(s, `/dashboard/webhooks/${hook!.webhook_id}/remove`));
    expect(shown(removed.text)).toContain(`Webhook ${receiver.url} was removed`);
    expect(shown(removed.text)).toContain('No webhooks yet.');
    expect(await listed(s)).toEqual([]);
    for (const page of [added.text, tested.text, paused.text, rotated.text, confirm, removed.text]) expect(shown(page)).not.toMatch(API_WORDS);

    // Removed, its forms say so in the owner's words.
    const gone = await post(s, `/dashboard/webhooks/${hook!.webhook_id}/test`).expect(404);
    expect(shown(gone.text)).toContain('That webhook is not in your business');
    expect(receiver.got).toHaveLength(2);
  });

  it('never shows or acts on another business’s webhook', async () => {
    const s = await signedIn();
    await post(s, '/dashboard/webhooks', { url: receiver.url, events: 'all' }).expect(303);
    const [hook] = await listed(s);
    const other = await signedIn();
    expect((await h.api.get('/dashboard/webhooks').set('Cookie', other.cookie).expect(200)).text).not.toContain(receiver.url);
    await h.api.get(`/dashboard/webhooks/${hook!.webhook_id}/remove`).set('Cookie', other.cookie).expect(404);
    for (const part of ['test', 'paused', 'retry', 'secret', 'remove'])
      await post(other, `/dashboard/webhooks/${hook!.webhook_id}/${part}`, { paused: 'yes' }).expect(404);
    expect(receiver.got).toHaveLength(0);
    expect(await listed(s)).toMatchObject([{ state: 'active' }]);
  });

  it('shows a failing webhook with the reason and its next try, and "Retry now" tries it at once', async () => {
    const s = await signedIn();
    const added = await follow(s, await post(s, '/dashboard/webhooks', { url: receiver.url, events: 'all' }));
    receiver.secrets = [secretIn(added.text)!];
    const [hook] = await listed(s);
    const send = webhookSender(h);
    try {
      await h.api.post('/api/v1/book_job').set(s.auth).send(validBooking()).expect(200);
      receiver.script = [500, 500, 500, 500, 500];
      for (let i = 0; i < 5; i++) {
        await send.tick();
        const [w] = await listed(s);
        if (i < 4) h.clock.now = new Date(new Date(w!.next_try_at).getTime() + 1000);
      }
      expect((await listed(s))[0]).toMatchObject({ state: 'failing', behind: 2 });
      const page = shown((await h.api.get('/dashboard/webhooks').set('Cookie', s.cookie).expect(200)).text);
      expect(page).toMatch(/Failing since \w{3}, \w{3} \d+, [\d:]+ [AP]M \w+: The receiver answered 500\./);
      expect(page).toMatch(/Next try: \w{3}, \w{3} \d+/);
      expect(page).toContain('2 events waiting');
      expect(page).toContain('Retry now');

      // Retry now: due at once, and the receiver (answering again) gets the job, then the word that it is back.
      await send.tick(); // not due yet: nothing is sent
      expect(receiver.got).toHaveLength(5);
      await follow(s, await post(s, `/dashboard/webhooks/${hook!.webhook_id}/retry`));
      await send.tick();
      await send.tick();
      expect(receiver.acked().map((g) => g.body.kind)).toEqual(['booking.created', 'webhook.failing', 'webhook.recovered']);
      const back = shown((await h.api.get('/dashboard/webhooks').set('Cookie', s.cookie).expect(200)).text);
      expect(back).toMatch(/Sending\. Events: All events Last event received: \w{3}/);
      expect(back).not.toContain('Retry now');
    } finally {
      send.close();
    }
  });
});
