// The dashboard's clients (src/dashboard/client-pages.ts): the list and its search, a client's
// page with notes kept through a refusal, "book again" booking once however often its form is sent.
import { dashboardSession, proDeskHarnessPerFile, newPro, validBooking, postDashboardForm, followDashboardForm, pageText } from '@frontdesk/dev-env/pro-desk';

const h = proDeskHarnessPerFile();

let seq = 0;
/** A business whose owner is signed in, with Ana (booked twice) and Bo as clients. */
async function withClients() {
  const email = `clients${(seq += 1)}@dash.example`;
  const pro = await newPro(h, { owner_email: email });
  const s = { ...pro, ...(await dashboardSession(h, email)) };
  const book = (over: Record<string, unknown>) => h.api.post('/api/v1/book_job').set(pro.auth).send(validBooking(over)).expect(200);
  await book({ start: '2026-11-24T09:00:00-05:00', customer_name: 'Ana Lopez', customer_phone: '(212) 555-0142' });
  await book({ start: '2026-11-25T09:00:00-05:00', customer_name: 'Ana Lopez', customer_phone: '212-555-0142', clean_type: 'deep' });
  await book({ start: '2026-11-26T09:00:00-05:00', customer_name: 'Bo Chen', customer_phone: '917 555 0199', address: '77 Harbor View' });
  const list = (await h.api.get('/api/v1/list_clients').set(pro.auth).expect(200)).body.clients as { client_id: string; name: string }[];
  return { ...s, ana: list.find((c) => c.name === 'Ana Lopez')!.client_id, bo: list.find((c) => c.name === 'Bo Chen')!.client_id };
}
type Session = Awaited<ReturnType<typeof withClients>>;

const pageOf = async (s: Session, path: string, status = 200) => (await h.api.get(path).set('Cookie', s.cookie).expect(status)).text;
const bookingsOf = (s: Session, name: string) =>
  h.t.db
    .selectFrom('bookings')
    .select(['id', 'clean_type', 'address'])
    .where('pro_id', '=', s.pro.id)
    .where('customer_name', '=', name)
    .where('status', '=', 'booked')
    .execute();

describe('the client list', () => {
  it('lists every client and finds one by part of a phone number, without script', async () => {
    const s = await withClients();
    const all = pageText(await pageOf(s, '/dashboard/clients'));
    expect(all).toMatch(/Ana Lopez .*Bo Chen/);
    const found = await pageOf(s, '/dashboard/clients?q=555-0142');
    expect(pageText(found)).toContain('Ana Lopez');
    expect(pageText(found)).not.toContain('Bo Chen');
    expect(found).toContain('value="555-0142"');
    expect(pageText(await pageOf(s, '/dashboard/clients?q=nobody'))).toMatch(/No client matches that search/);
  });

  it('answers 404 with the way back for a client of another business', async () => {
    const s = await withClients();
    const other = await withClients();
    const page = pageText(await pageOf(other, `/dashboard/clients/${s.ana}`, 404));
    expect(page).toMatch(/That client is not in your client list/);
    expect(page).toMatch(/Back to your clients/);
  });
});

describe("a client's page", () => {
  it('shows the visits, the total booked and the notes saved; a refused note keeps what was typed', async () => {
    const s = await withClients();
    const page = pageText(await pageOf(s, `/dashboard/clients/${s.ana}`));
    expect(page).toMatch(/Booked in all: \$\d+\.\d\d over 2 visits/);
    expect(page).toMatch(/Tue, Nov 24, 9:00 AM EST : Standard clean/);
    expect(page).toMatch(/Wed, Nov 25, 9:00 AM EST : Deep clean/);
    const saved = await followDashboardForm(h, s, await postDashboardForm(h, s, `/dashboard/clients/${s.ana}/notes`, { notes: 'Side door; dog is friendly.' }));
    expect(saved.location).toMatch(new RegExp(`^/dashboard/clients/${s.ana}\\?done=.+#notes$`));
    expect(pageText(saved.text)).toMatch(/Saved your notes about Ana Lopez\./);
    expect(saved.text).toContain('>Side door; dog is friendly.</textarea>');
    const long = `Too long ${'x'.repeat(2000)}`;
    const refused = await postDashboardForm(h, s, `/dashboard/clients/${s.ana}/notes`, { notes: long }).expect(400);
    expect(refused.text).toContain(`>${long}</textarea>`);
    expect(pageText(refused.text)).toMatch(/Your notes/);
    expect(await pageOf(s, `/dashboard/clients/${s.ana}`)).toContain('>Side door; dog is friendly.</textarea>');
  });

  it('books the newest job again at a picked open time, once however often the confirmed form is sent', async () => {
    const s = await withClients();
    const times = await pageOf(s, `/dashboard/clients/${s.ana}/book`);
    expect(pageText(times)).toMatch(/Deep clean for Ana Lopez, 2 bd \/ 1 ba, at 12 Grove St, Apt 3/);
    const start = /name="start" value="([^"]+)"/.exec(times)![1]!;
    const confirm = await pageOf(s, `/dashboard/clients/${s.ana}/book/confirm?start=${encodeURIComponent(start)}`);
    const once = /name="once" value="([^"]+)"/.exec(confirm)![1]!;
    const form = { start, once, from: '' };
    const first = await followDashboardForm(h, s, await postDashboardForm(h, s, `/dashboard/clients/${s.ana}/book`, form));
    expect(pageText(first.text)).toMatch(/Booked Ana Lopez again on .*We have not told Ana Lopez/);
    await followDashboardForm(h, s, await postDashboardForm(h, s, `/dashboard/clients/${s.ana}/book`, form));
    const ana = await bookingsOf(s, 'Ana Lopez');
    expect(ana).toHaveLength(3);
    expect(ana.filter((b) => b.clean_type === 'deep')).toHaveLength(2);
    // Without a picked time the times come again with the reason.
    expect(pageText(await pageOf(s, `/dashboard/clients/${s.ana}/book/confirm`))).toMatch(/Pick one of the open times first/);
  });
});
