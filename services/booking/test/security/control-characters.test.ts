// Control and line-separator characters in people's text (issue 32, item 3). Every one-line
// field of every operation of both hosts refuses them with the same sentence on REST and MCP
// (and so on the pages, which run the operations), naming the field; multi-line fields keep
// line breaks and tabs; the headers that carry names get the same rule; and nothing of it is
// stored, whichever path it came by.
import { MULTI_LINE_PATTERN, MULTI_LINE_TEXT, ONE_LINE_TEXT } from '@frontdesk/domain';
import { signInCodeSentTo } from '@frontdesk/db/testing';
import { dashboardSession, pageText, postDashboardForm, type Harness } from '@frontdesk/dev-env/pro-desk';
import {
  CONTROL_CHARACTERS,
  LINE_BREAKS,
  asPublic,
  booking,
  bothHostsPerFile,
  newCleaner,
  textBreakingTheRules,
  textFieldsOf,
  type TextField,
} from '@frontdesk/dev-env/both-hosts';
import { agentBrowsing, bookOnThePage } from '@frontdesk/dev-env/booking-page';
import request from 'supertest';

const h = bothHostsPerFile();

type Schema = Record<string, any>;

interface Target extends TextField {
  host: 'pro' | 'book';
}

async function targetsOf(host: 'pro' | 'book'): Promise<Target[]> {
  return textFieldsOf((await h[host].get('/openapi.json').expect(200)).body as Schema).map((f) => ({ ...f, host }));
}

/** `text` with `ch` inside it, as long as the field's shortest value (a start is at least 10 characters). */
const holding = (ch: string) => `Ev${ch}il Bcc: x@y.example`;

const authOf = async (host: 'pro' | 'book') => (host === 'pro' ? (await newCleaner(h)).auth : asPublic);

/** The refusal's sentence over REST, or null when the call was not refused for its input. */
async function overRest(t: Target, auth: Record<string, string>, input: Record<string, unknown>): Promise<{ status: number; said: string }> {
  const api = h[t.host];
  if (t.method === 'get') {
    const query = Object.entries(input)
      .map(([k, v]) => `${k}=${encodeURIComponent(Array.isArray(v) ? v.join(',') : String(v))}`)
      .join('&');
    const res = await api.get(`/api/v1/${t.op}?${query}`).set(auth);
    return { status: res.status, said: String(res.body.error ?? '') };
  }
  const res = await api.post(`/api/v1/${t.op}`).set(auth).send(input);
  return { status: res.status, said: String(res.body.error ?? '') };
}

async function overMcp(t: Target, auth: Record<string, string>, input: Record<string, unknown>): Promise<{ refused: boolean; said: string }> {
  const res = await h[t.host]
    .post('/mcp')
    .set(auth)
    .set('Accept', 'application/json, text/event-stream')
    .send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: t.op, arguments: input } })
    .expect(200);
  return { refused: res.body.result?.isError === true, said: String(res.body.result?.content?.[0]?.text ?? res.body.error?.message ?? '') };
}

describe('one-line fields of the operations', () => {
  it('cover every text field of every operation and every header that carries a name, on both hosts, but the multi-line notes and access details', async () => {
    const ruleless: string[] = [];
    const multi: string[] = [];
    /** Every string schema in `s`, at any depth, by the field's name. */
    const strings = (s: Schema, field: string): [string, Schema][] =>
      s.type === 'string'
        ? [[field, s]]
        : s.type === 'array'
          ? strings(s.items ?? {}, `${field}[0]`)
          : Object.entries((s.properties ?? {}) as Record<string, Schema>).flatMap(([k, sub]) => strings(sub, field ? `${field}.${k}` : k));
    for (const host of ['pro', 'book'] as const) {
      const doc = (await h[host].get('/openapi.json').expect(200)).body as Schema;
      for (const [path, item] of Object.entries(doc.paths as Record<string, Schema>)) {
        for (const entry of Object.values(item) as Schema[]) {
          const op = path.replace('/api/v1/', '');
          const fields: [string, Schema][] = [
            ...((entry.parameters ?? []) as Schema[]).map((p): [string, Schema] => [p.name, p.schema]),
            ...(entry.requestBody ? strings(entry.requestBody.content['application/json'].schema, '') : []),
          ];
          for (const [field, schema] of fields.flatMap(([f, sub]) => strings(sub, f))) {
            // The retry key's rule (printable, no spaces) is judged in its own words before any schema.
            if (field === 'Idempotency-Key') continue;
            if (schema.pattern === MULTI_LINE_PATTERN) multi.push(`${op}.${field}`);
            else if (schema.pattern === undefined && schema.enum === undefined) ruleless.push(`${host} ${op}.${field}`);
          }
        }
      }
    }
    expect(ruleless).toEqual([]);
    expect(multi.sort()).toEqual(['book_cleaning.access_details', 'book_cleaning.notes', 'book_job.notes', 'update_client_notes.notes', 'update_lead.notes']);
  });

  it('refuse a control, separator or override character with one sentence naming the field, on REST and MCP alike, and store nothing', async () => {
    const auth = { pro: await authOf('pro'), book: await authOf('book') };
    const targets = [...(await targetsOf('pro')), ...(await targetsOf('book'))];
    const wrong: string[] = [];
    let sent = 0;
    for (const t of targets) {
      const multi = t.pattern === MULTI_LINE_PATTERN;
      for (const [name, ch] of Object.entries(CONTROL_CHARACTERS)) {
        if (multi && LINE_BREAKS.includes(name)) continue;
        const input = t.input(holding(ch));
        const expected = `${t.field} must be ${multi ? MULTI_LINE_TEXT : ONE_LINE_TEXT}.`;
        const rest = await overRest(t, auth[t.host], input);
        const mcp = await overMcp(t, auth[t.host], input);
        sent += 2;
        if (rest.status !== 400 || rest.said !== expected) wrong.push(`REST ${t.op} ${t.field} ${name}: ${rest.status} ${rest.said}`);
        if (!mcp.refused || mcp.said !== expected) wrong.push(`MCP ${t.op} ${t.field} ${name}: ${mcp.said}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(sent).toBeGreaterThan(1000);
    expect(await textBreakingTheRules(h.t.db)).toEqual([]);
  }, 180_000); // some 1,800 calls: a minute on a busy machine

  it('are refused as a body field would be when the name comes in a query string (a read)', async () => {
    const { auth } = await newCleaner(h);
    const res = await h.pro.get(`/api/v1/open_times?bedrooms=1&bathrooms=1&crew_id=${encodeURIComponent('crew\r\nX-Injected: 1')}`).set(auth);
    expect([res.status, res.body.error]).toEqual([400, `crew_id must be ${ONE_LINE_TEXT}.`]);
  });
});

describe('multi-line fields', () => {
  it('keep line breaks and tabs as typed (CRLF, CR, LF, NEL, U+2028, U+2029), and refuse an override there too', async () => {
    const { pro } = await newCleaner(h);
    const notes = 'Gate code 1234\r\nRing twice\rDog: Rex\nParking\u0085on the left\u2028side\u2029\tthanks';
    const access = 'Key under the mat\r\nAlarm 9876';
    const booked = await h.book
      .post('/api/v1/book_cleaning')
      .set(asPublic)
      .send(booking(pro.id, { notes, access_details: access }))
      .expect(200);
    const row = await h.t.db.selectFrom('bookings').select(['notes', 'access_details']).where('id', '=', booked.body.booking_id).executeTakeFirstOrThrow();
    expect(row).toEqual({ notes, access_details: access });
    const refused = await h.book
      .post('/api/v1/book_cleaning')
      .set(asPublic)
      .send(booking(pro.id, { start: '2026-11-24T13:00:00-05:00', notes: 'Gate \u202e4321' }));
    expect([refused.status, refused.body.error]).toEqual([400, `notes must be ${MULTI_LINE_TEXT}.`]);
    expect(await textBreakingTheRules(h.t.db)).toEqual([]);
  });
});

/** Header text as Node's client takes it: the UTF-8 bytes of `text`, each byte one Latin-1 character. */
const utf8Header = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

/**
 * A POST with these headers and a JSON body, the body written as bytes of its own: Node's
 * client sends a text body in one piece with the headers, encoded as UTF-8 as a whole, which
 * would turn the headers' Latin-1 bytes into others.
 */
function postWith(host: 'pro' | 'book', path: string, headers: Record<string, string>, body: unknown) {
  const req = h[host].post(path).set(headers).set('Content-Type', 'application/json').set('Accept', 'application/json, text/event-stream');
  req.write(Buffer.from(JSON.stringify(body)));
  return req;
}

describe('headers that carry names', () => {
  it('refuse the same characters, on REST and MCP alike, naming the header (X-User-Name, X-User-Email, X-User-Phone, X-Client-Name)', async () => {
    const { pro, auth: proAuth } = await newCleaner(h);
    const values: Record<string, string> = {
      TAB: 'Evil\tBcc: x@y.example',
      'NEL (one byte)': 'Evil\u0085Bcc: x@y.example',
      'NEL (UTF-8)': utf8Header('Evil\u0085Bcc: x@y.example'),
      'LINE SEPARATOR (UTF-8)': utf8Header('Evil\u2028Bcc: x@y.example'),
      'RIGHT-TO-LEFT OVERRIDE (UTF-8)': utf8Header('Maids \u202egnp.exe'),
    };
    const wrong: string[] = [];
    for (const [what, value] of Object.entries(values)) {
      for (const header of ['X-User-Name', 'X-User-Email', 'X-User-Phone']) {
        const rest = await postWith('book', '/api/v1/book_cleaning', { ...asPublic, [header]: value }, booking(pro.id));
        if (rest.status !== 400 || rest.body.error !== `The ${header} header must be ${ONE_LINE_TEXT}.`)
          wrong.push(`REST ${header} ${what}: ${rest.status} ${rest.text}`);
        const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'find_cleaners', arguments: { zip: '10001', bedrooms: 1, bathrooms: 1 } } };
        const mcp = await postWith('book', '/mcp', { ...asPublic, [header]: value }, call);
        if (!JSON.stringify(mcp.body).includes(`The ${header} header must be ${ONE_LINE_TEXT}.`)) wrong.push(`MCP ${header} ${what}: ${mcp.text}`);
      }
      const client = await postWith('pro', '/api/v1/book_job', { ...proAuth, 'X-Client-Name': value }, booking(pro.id));
      if (client.status !== 400 || client.body.error !== `The X-Client-Name header must be ${ONE_LINE_TEXT}.`)
        wrong.push(`X-Client-Name ${what}: ${client.status} ${client.text}`);
    }
    expect(wrong).toEqual([]);
    expect(await h.t.db.selectFrom('bookings').select('id').where('pro_id', '=', pro.id).execute()).toEqual([]);
    expect(await textBreakingTheRules(h.t.db)).toEqual([]);
  });

  it('are read as the UTF-8 their sender wrote: a name in any script is the name, not its bytes as Latin-1', async () => {
    const { pro, auth } = await newCleaner(h);
    const name = 'Łukasz Żółć-Ñúñez 李雷';
    const headers = { ...asPublic, 'X-User-Name': utf8Header(name), 'X-Client-Name': utf8Header('Asistente Ñ') };
    const booked = await postWith('book', '/api/v1/book_cleaning', headers, { ...booking(pro.id), customer_name: undefined });
    expect([booked.status, booked.body.error]).toEqual([200, undefined]);
    expect(booked.body.customer.name).toBe(name);
    const job = await h.pro.get('/api/v1/schedule').set(auth).expect(200);
    expect(job.body.jobs.find((j: { booking_id: string }) => j.booking_id === booked.body.booking_id)).toMatchObject({
      customer: { name },
      client_name: 'Asistente Ñ',
    });
  });
});

describe('the pages, which judge through the same operations', () => {
  it('refuse a name with a line break on the booking form, in the customer’s words, and book nothing', async () => {
    const { pro } = await newCleaner(h);
    const res = await bookOnThePage(agentBrowsing(request.agent(h.bookApp)), pro.id, {
      pick: { bedrooms: '2', bathrooms: '1', start: '2026-11-24T09:00:00-05:00' },
      details: { customer_name: 'Evil\r\nBcc: x@y.example', customer_email: 'ana@example.com', address: '12 Grove St', zip: '10001' },
    });
    expect(res.status).toBe(400);
    expect(pageText(res.text)).toContain(`Your name must be ${ONE_LINE_TEXT}.`);
    expect(res.text).not.toContain('customer_name must');
    expect(await h.t.db.selectFrom('bookings').select('id').where('pro_id', '=', pro.id).execute()).toEqual([]);
  });

  it('refuse one on the owner’s settings, crew, time-off and webhook forms, naming the field by its label', async () => {
    const email = `controls.${Date.now()}@dash.example`;
    const { pro } = await newCleaner(h, { owner_email: email });
    const dash = { api: h.pro, t: h.t } as unknown as Harness;
    const s = await dashboardSession(dash, email);
    const cases: [string, Record<string, string>, string][] = [
      ['/dashboard/profile', { name: 'Maids \u2028Co', service_zips: '10001' }, 'Business name'],
      ['/dashboard/crews', { name: 'Night\u202eOwls' }, 'Name of the new crew'],
      ['/dashboard/time-off', { start: '2026-12-24', end: '2026-12-25', note: 'Holiday\rX' }, 'Note (optional)'],
      ['/dashboard/webhooks', { url: 'https://hooks.example/a\nb' }, ''],
    ];
    for (const [path, form, label] of cases) {
      const res = await postDashboardForm(dash, s, path, form);
      expect([path, res.status]).toEqual([path, 400]);
      expect([path, pageText(res.text)]).toEqual([path, expect.stringContaining(`must be ${ONE_LINE_TEXT}.`)]);
      if (label) expect([path, pageText(res.text)]).toEqual([path, expect.stringContaining(`${label} must be`)]);
    }
    const row = await h.t.db.selectFrom('pros').select('name').where('id', '=', pro.id).executeTakeFirstOrThrow();
    expect(row.name).toBe(pro.name);
    expect(await textBreakingTheRules(h.t.db)).toEqual([]);
  });

  it('refuse one in the name a new business signs up with, on the form and its JSON twin', async () => {
    const email = `signup.${Date.now()}@new.example`;
    await h.pro.post('/signup/api/code').send({ email }).expect(202);
    const code = await signInCodeSentTo(h.t.db, email);
    const business = { email, code, name: 'Evil\nCo', timezone: 'America/New_York', service_zips: ['10001'] };
    const json = await h.pro.post('/signup/api/business').send(business);
    expect([json.status, json.body.error]).toEqual([400, `name must be ${ONE_LINE_TEXT}.`]);
    const form = await h.pro
      .post('/signup/business')
      .type('form')
      .send({ ...business, service_zips: undefined, zips: '10001', name: 'Evil\u0085Co' });
    expect(form.status).toBe(400);
    expect(pageText(form.text)).toContain(`Business name must be ${ONE_LINE_TEXT}.`);
    expect(await h.t.db.selectFrom('pros').select('id').where('owner_email', '=', email).execute()).toEqual([]);
  });
});
