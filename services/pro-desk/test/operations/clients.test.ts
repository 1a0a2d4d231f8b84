// list_clients, client_history and update_client_notes (src/operations/clients.ts): everyone the
// business works for, found by part of a name, phone, email or address; never a platform lead's customer.
import { proDeskHarnessPerFile, newPro, validBooking } from '@frontdesk/dev-env/pro-desk';
import { listenOn, mcpClient } from '@frontdesk/dev-env/mcp-client';

const h = proDeskHarnessPerFile();
type Json = Record<string, any>;
type Auth = Record<string, string>;

const post = (auth: Auth, op: string, body: object) => h.api.post(`/api/v1/${op}`).set(auth).send(body);
const get = (auth: Auth, op: string, query: object = {}) => h.api.get(`/api/v1/${op}`).set(auth).query(query);
const at = (day: number, hour = 9) => `2026-11-${day}T${String(hour).padStart(2, '0')}:00:00-05:00`;
/** Books with validBooking's fields but those `over` names; a null leaves the field out. */
const book = async (auth: Auth, over: Record<string, unknown>) => {
  const body = Object.fromEntries(Object.entries(validBooking(over)).filter(([, v]) => v !== null));
  return (await post(auth, 'book_job', body).expect(200)).body as Json;
};
const names = async (auth: Auth, search?: string): Promise<string[]> =>
  ((await get(auth, 'list_clients', search === undefined ? {} : { search }).expect(200)).body.clients as Json[]).map((c) => c.name);

/** A business with three clients booked by its assistant, one of them twice under two spellings of her email. */
async function threeClients() {
  const pro = await newPro(h);
  await book(pro.auth, { start: at(24), customer_name: 'Ana Lopez', customer_phone: '(212) 555-0142', customer_email: 'Ana@Example.com' });
  await book(pro.auth, { start: at(25), customer_name: 'Ana Lopez-Diaz', customer_phone: null, customer_email: 'ana@example.com', address: '9 Elm Rd' });
  await book(pro.auth, { start: at(26), customer_name: 'Bo Chen', customer_phone: '917.555.0199', address: '77 Harbor View' });
  await book(pro.auth, { start: at(27), customer_name: 'Cy Park', customer_phone: null, customer_email: 'cy@park.example', address: '3 Main St' });
  return pro;
}

describe('list_clients', () => {
  it('finds a client by part of a phone number, a name, an email or an address, in any case', async () => {
    const { auth } = await threeClients();
    expect(await names(auth)).toEqual(['Ana Lopez-Diaz', 'Bo Chen', 'Cy Park']);
    expect(await names(auth, '555-01')).toEqual(['Ana Lopez-Diaz', 'Bo Chen']);
    expect(await names(auth, '0199')).toEqual(['Bo Chen']);
    expect(await names(auth, '(212) 555')).toEqual(['Ana Lopez-Diaz']);
    expect(await names(auth, 'CHEN')).toEqual(['Bo Chen']);
    expect(await names(auth, 'ana@exa')).toEqual(['Ana Lopez-Diaz']);
    expect(await names(auth, 'harbor')).toEqual(['Bo Chen']);
    // Every address a client booked at finds them, not only the newest.
    expect(await names(auth, 'grove')).toEqual(['Ana Lopez-Diaz']);
    expect(await names(auth, 'park main')).toEqual(['Cy Park']);
    expect(await names(auth, '100%')).toEqual([]);
    expect(await names(auth, 'nobody')).toEqual([]);
  });

  it('shows each client once, with their booked jobs and next visit', async () => {
    const { auth } = await threeClients();
    const ana = ((await get(auth, 'list_clients', { search: 'ana' }).expect(200)).body.clients as Json[])[0]!;
    expect(ana).toMatchObject({ name: 'Ana Lopez-Diaz', email: 'ana@example.com', phone: '(212) 555-0142', address: '9 Elm Rd', booked_jobs: 2 });
    expect(ana.next_visit).toMatch(/^Tue, Nov 24, 9:00 AM/);
  });

  it("never lists a platform lead's customer, and lists a direct lead logged with a contact", async () => {
    const { auth } = await newPro(h);
    const paid = (await post(auth, 'log_lead', { source: 'marketplace_1', lead_ref: 'MK-1', bedrooms: 2, bathrooms: 1, zip: '10001' }).expect(200)).body;
    await book(auth, { start: at(24), lead_id: paid.lead_id, customer_name: 'Platform Pat', customer_email: 'pat@example.com' });
    await post(auth, 'log_lead', { source: 'website', customer_first_name: 'Mia', contact: 'Mia@Example.com', zip: '10002' }).expect(200);
    await post(auth, 'log_lead', { source: 'referral', customer_first_name: 'Noor', contact: 'text 646-555-0111' }).expect(200);
    await post(auth, 'log_lead', { source: 'marketplace_2', customer_first_name: 'Zed', contact: 'zed@example.com' }).expect(200);
    expect(await names(auth)).toEqual(['Mia', 'Noor']);
    expect(await names(auth, 'pat')).toEqual([]);
    expect(await names(auth, '0111')).toEqual(['Noor']);
    const row = await h.t.db.selectFrom('bookings').select('client_id').where('customer_name', '=', 'Platform Pat').executeTakeFirstOrThrow();
    expect(row.client_id).toBeNull();
  });

  it("pages by cursor without repeats, and refuses a cursor it did not give; another business's clients are not listed", async () => {
    const { auth } = await threeClients();
    const first = (await get(auth, 'list_clients', { limit: 2 }).expect(200)).body;
    expect(first.clients.map((c: Json) => c.name)).toEqual(['Ana Lopez-Diaz', 'Bo Chen']);
    const second = (await get(auth, 'list_clients', { limit: 2, cursor: first.next_cursor }).expect(200)).body;
    expect(second).toMatchObject({ count: 1, next_cursor: null });
    expect(second.clients[0].name).toBe('Cy Park');
    expect((await get(auth, 'list_clients', { cursor: 'not-a-cursor' }).expect(400)).body.error).toMatch(/cursor is not one list_clients gave/);
    expect((await get(auth, 'list_clients', { limit: 101 }).expect(400)).body.error).toMatch(/limit/);
    const other = await newPro(h);
    expect(await names(other.auth)).toEqual([]);
  });
});

describe('client_history', () => {
  it('shows upcoming and past visits, recurring plans, the total booked (cancelled visits aside) and leads', async () => {
    const { auth } = await newPro(h);
    await post(auth, 'log_lead', { source: 'website', customer_first_name: 'Ana', contact: 'ana@example.com', bedrooms: 2, bathrooms: 1 }).expect(200);
    const once = await book(auth, { start: at(24), customer_email: 'ana@example.com' });
    const cancelled = await book(auth, { start: at(25), customer_email: 'ana@example.com' });
    await post(auth, 'cancel_job', { booking_id: cancelled.booking_id }).expect(200);
    const weekly = await book(auth, { start: at(26), customer_email: 'ana@example.com', frequency: 'weekly' });
    h.clock.now = new Date('2026-11-25T12:00:00Z');
    try {
      const client = ((await get(auth, 'list_clients').expect(200)).body.clients as Json[])[0]!;
      const history = (await get(auth, 'client_history', { client_id: client.client_id }).expect(200)).body;
      expect(history.client).toMatchObject({ name: 'Ana Lopez', email: 'ana@example.com', notes: null });
      expect(history.past.map((v: Json) => v.booking_id)).toEqual([once.booking_id]);
      expect(history.past[0]).toMatchObject({ status: 'booked', address: '12 Grove St, Apt 3', job: { bedrooms: 2, bathrooms: 1, clean_type: 'standard' } });
      expect(history.upcoming[0]).toMatchObject({ booking_id: cancelled.booking_id, status: 'cancelled' });
      const visits = weekly.series.visits as Json[];
      expect(history.upcoming.slice(1).map((v: Json) => v.booking_id)).toEqual(visits.map((v) => v.booking_id));
      const worth = once.total + visits.reduce((sum, v) => sum + v.total, 0);
      expect(history.total_booked).toBeCloseTo(worth, 2);
      expect(history.booked_visits).toBe(1 + visits.length);
      expect(history.plans).toEqual([
        {
          series_id: weekly.series.series_id,
          frequency: 'weekly',
          ended: false,
          next_visit: expect.stringMatching(/^Thu, Nov 26/),
          crew_name: expect.any(String),
        },
      ]);
      expect(history.leads).toEqual([expect.objectContaining({ source: 'website', status: 'quoted' })]);
    } finally {
      h.clock.now = new Date('2026-11-23T12:00:00Z');
    }
  });

  it('answers 404 for a client of another business', async () => {
    const ana = await threeClients();
    const client = ((await get(ana.auth, 'list_clients').expect(200)).body.clients as Json[])[0]!;
    const other = await newPro(h);
    expect((await get(other.auth, 'client_history', { client_id: client.client_id }).expect(404)).body.error).toMatch(/No client with id/);
    expect((await post(other.auth, 'update_client_notes', { client_id: client.client_id, notes: 'x' }).expect(404)).body.error).toMatch(/No client/);
  });
});

describe('update_client_notes', () => {
  it('keeps the notes the history shows, replaces them, and clears them with an empty text', async () => {
    const { auth } = await threeClients();
    const id = ((await get(auth, 'list_clients', { search: 'chen' }).expect(200)).body.clients as Json[])[0]!.client_id;
    const saved = (await post(auth, 'update_client_notes', { client_id: id, notes: 'Gate code 4412.\nLikes the same crew.' }).expect(200)).body;
    expect(saved).toMatchObject({ client_id: id, notes: 'Gate code 4412.\nLikes the same crew.', message: 'Saved your notes about Bo Chen.' });
    expect((await get(auth, 'client_history', { client_id: id }).expect(200)).body.client.notes).toBe('Gate code 4412.\nLikes the same crew.');
    // A new booking of the client keeps the notes.
    await book(auth, { start: at(30), customer_name: 'Bo Chen', customer_phone: '+1 917 555 0199' });
    expect((await get(auth, 'client_history', { client_id: id }).expect(200)).body.client.notes).toBe('Gate code 4412.\nLikes the same crew.');
    await post(auth, 'update_client_notes', { client_id: id, notes: '' }).expect(200);
    expect((await get(auth, 'client_history', { client_id: id }).expect(200)).body.client.notes).toBeNull();
    expect((await post(auth, 'update_client_notes', { client_id: id, notes: 'x'.repeat(2001) }).expect(400)).body.error).toMatch(/notes/);
  });

  it('over MCP: lists, reads and keeps notes with the same answers', async () => {
    const { auth, key } = await threeClients();
    const server = await listenOn(h.app);
    const client = await mcpClient(server.url, { authorization: `Bearer ${key}` });
    try {
      const listed = (await client.callTool({ name: 'list_clients', arguments: { search: '555-0142' } })).structuredContent as Json;
      expect(listed.clients.map((c: Json) => c.name)).toEqual(['Ana Lopez-Diaz']);
      const id = listed.clients[0].client_id;
      await client.callTool({ name: 'update_client_notes', arguments: { client_id: id, notes: 'Prefers mornings.' } });
      const history = (await client.callTool({ name: 'client_history', arguments: { client_id: id } })).structuredContent as Json;
      expect(history).toEqual((await get(auth, 'client_history', { client_id: id }).expect(200)).body);
      expect(history.client.notes).toBe('Prefers mornings.');
      const { tools } = await client.listTools();
      expect(tools.find((t) => t.name === 'list_clients')!.annotations).toMatchObject({ readOnlyHint: true });
      expect(tools.find((t) => t.name === 'update_client_notes')!.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: true });
    } finally {
      await client.close();
      await server.close();
    }
  });
});
