// The dispatch board (src/dashboard/board-page.ts, views/board.ts) and the job page its blocks
// open: each job in its crew's row and its day's cell, placed by its start; a job outside its
// crew's hours or in time off says so; the week's links and the date box; a date that is no
// day answers 400 in words.
import { dashboardSession, proDeskHarnessPerFile, newPro, validBooking, pageText } from '@frontdesk/dev-env/pro-desk';

const h = proDeskHarnessPerFile();

let seq = 0;
/** A business with two crews (its first, and "Night Owls" working only Monday to Wednesday 12:00-18:00), its owner signed in; the clock is Monday, Nov 23, 7 AM. */
async function twoCrews() {
  const email = `board${(seq += 1)}@dash.example`;
  const pro = await newPro(h, { owner_email: email });
  const { cookie } = await dashboardSession(h, email);
  const hours = { monday: ['12:00-18:00'], tuesday: ['12:00-18:00'], wednesday: ['12:00-18:00'], thursday: [], friday: [], saturday: [] };
  const night = (await h.api.post('/api/v1/add_crew').set(pro.auth).send({ name: 'Night Owls', working_hours: hours }).expect(200)).body as { crew_id: string };
  const crews = (await h.api.get('/api/v1/my_business').set(pro.auth).expect(200)).body.crews as { crew_id: string; name: string }[];
  return { ...pro, cookie, first: crews[0]!.crew_id, night: night.crew_id };
}
type Owner = Awaited<ReturnType<typeof twoCrews>>;

const book = async (o: Owner, crewId: string, start: string, over: Record<string, unknown> = {}) =>
  (
    (
      await h.api
        .post('/api/v1/book_job')
        .set(o.auth)
        .send(validBooking({ crew_id: crewId, start, ...over }))
        .expect(200)
    ).body as { booking_id: string }
  ).booking_id;
const board = (o: Owner, query = '') => h.api.get(`/dashboard/board${query}`).set('Cookie', o.cookie);

/** The HTML of one crew's row, and of its cell for a day. */
const rowOf = (page: string, crewId: string) => {
  const at = page.indexOf(`<tr data-crew="${crewId}"`);
  expect(at).toBeGreaterThan(-1);
  return page.slice(at, page.indexOf('</tr>', at));
};
const cellOf = (row: string, day: string) => {
  const at = row.indexOf(`data-day="${day}"`);
  expect(at).toBeGreaterThan(-1);
  return row.slice(at, row.indexOf('</td>', at));
};
/** The classes of a job's block. */
const blockOf = (page: string, id: string) =>
  /class="block ([^"]+)" href="[^"]+" data-job="([^"]+)"/g.exec(page.slice(page.indexOf(`data-job="${id}"`) - 200))?.[1] ?? '';

describe('the dispatch board', () => {
  it('puts each job in its crew’s row and its day’s cell, placed by its start and sized by its length; jobs of other weeks and businesses stay off', async () => {
    const o = await twoCrews();
    const ana = await book(o, o.first, '2026-11-24T09:00:00-05:00', { customer_name: 'Ana Lopez', address: '12 Grove St' });
    const bo = await book(o, o.night, '2026-11-25T13:00:00-05:00', { customer_name: 'Bo Night', address: '7 Owl Ln', clean_type: 'deep' });
    const later = await book(o, o.first, '2026-11-30T10:00:00-05:00', { customer_name: 'Cy Later' });
    const other = await twoCrews();
    const theirs = await book(other, other.first, '2026-11-24T11:00:00-05:00', { customer_name: 'Otto Other' });

    const page = (await board(o).expect(200)).text;
    expect(page).toContain('<title>Board - Front Desk</title>');
    const first = rowOf(page, o.first);
    const night = rowOf(page, o.night);
    expect(cellOf(first, '2026-11-24')).toContain(`data-job="${ana}"`);
    expect(cellOf(night, '2026-11-25')).toContain(`data-job="${bo}"`);
    expect(night).not.toContain(`data-job="${ana}"`);
    expect(first).not.toContain(`data-job="${bo}"`);
    expect(page).not.toContain(later);
    expect(page).not.toContain(theirs);
    expect(page).not.toContain('Otto Other');

    // Each day runs from 8 AM (the earliest hours) in rows of 15 minutes: 9:00 is row 5, 13:00 row 21.
    expect(blockOf(page, ana)).toMatch(/^r5 h\d+$/);
    const [, rows] = /^r21 h(\d+)$/.exec(blockOf(page, bo))!;
    const { duration_minutes } = (await h.api.get(`/api/v1/quote_job?bedrooms=2&bathrooms=1&clean_type=deep`).set(o.auth).expect(200)).body as {
      duration_minutes: number;
    };
    expect(Number(rows)).toBe(Math.ceil(duration_minutes / 15));
    // The block says who, what and where, and opens the job's page.
    const text = pageText(cellOf(night, '2026-11-25'));
    expect(text).toMatch(/1:00 PM to \d+:\d\d PM Bo Night Deep clean 7 Owl Ln/);
    expect(page).toContain(`href="/dashboard/jobs/${bo}"`);
    // Working hours are said in words for each crew's day (a phone reads them; a desk sees them shaded).
    expect(pageText(cellOf(night, '2026-11-27'))).toContain('Not working. No jobs.');
    expect(pageText(cellOf(first, '2026-11-24'))).toContain('Works 8:00 AM to 5:00 PM.');
    expect(page).not.toContain('Needs a look');
  });

  it('flags a job outside its crew’s hours and one in the business’s time off, in words, with a link to each', async () => {
    const o = await twoCrews();
    const early = await book(o, o.night, '2026-11-24T13:00:00-05:00', { customer_name: 'Early Bird' });
    const closed = await book(o, o.first, '2026-11-26T10:00:00-05:00', { customer_name: 'Turkey Day' });
    // Booked in its hours, then the crew's hours change; the business closes for Thanksgiving after booking.
    await h.api
      .post('/api/v1/update_crew')
      .set(o.auth)
      .send({ crew_id: o.night, working_hours: { tuesday: ['15:00-18:00'] } })
      .expect(200);
    await h.api.post('/api/v1/add_time_off').set(o.auth).send({ start: '2026-11-26', end: '2026-11-26', note: 'Thanksgiving' }).expect(200);

    const page = (await board(o).expect(200)).text;
    const text = pageText(page);
    expect(text).toContain("Needs a look 2 jobs this week do not fit a crew's working hours or falls in time off:");
    expect(text).toMatch(/Tue, Nov 24, 1:00 PM: Early Bird \(Night Owls\): Outside Night Owls's working hours\./);
    expect(text).toMatch(/Thu, Nov 26, 10:00 AM: Turkey Day \(Sparkle [0-9a-f]+\): While the business is closed \(Thanksgiving\)\./);
    expect(blockOf(page, early)).toContain('flagged');
    expect(blockOf(page, closed)).toContain('flagged');
    expect(pageText(cellOf(rowOf(page, o.first), '2026-11-26'))).toContain('Business closed Thu, Nov 26, all day (Thanksgiving).');
    // Time off is shaded in every crew's cell of the day.
    expect(cellOf(rowOf(page, o.night), '2026-11-26')).toMatch(/class="shade off r1 h\d+"/);
  });

  it('goes from week to week by its links and the date box; a date that is no day is a 400 in words', async () => {
    const o = await twoCrews();
    const later = await book(o, o.first, '2026-12-02T10:00:00-05:00', { customer_name: 'Cy Later' });
    const now = (await board(o).expect(200)).text;
    expect(now).toContain('Jobs by crew from Mon, Nov 23 to Sun, Nov 29');
    expect(now).toContain('href="/dashboard/board?date=2026-11-30" rel="next"');
    expect(now).toContain('href="/dashboard/board?date=2026-11-16" rel="prev"');
    expect(now).toMatch(/<form method="get" action="\/dashboard\/board" class="board-pick">/);
    expect(now).toContain('<input type="date" name="date" value="2026-11-23" />');

    // Any day of a week shows that week, from its Monday.
    for (const day of ['2026-11-30', '2026-12-02', '2026-12-06']) {
      const page = (await board(o, `?date=${day}`).expect(200)).text;
      expect(page).toContain('Jobs by crew from Mon, Nov 30 to Sun, Dec 6');
      expect(page).toContain(`data-job="${later}"`);
      expect(page).toContain('href="/dashboard/board?date=2026-11-23" rel="prev"');
    }

    for (const bad of ['2026-02-30', 'next-week', '2026-1-5', '', '2026-11-23&date=2026-11-30']) {
      const res = await board(o, `?date=${bad}`);
      if (bad === '') {
        expect(res.status).toBe(200);
        continue;
      }
      expect([bad, res.status]).toEqual([bad, 400]);
      expect(res.text).toContain('role="alert"');
      expect(pageText(res.text)).toMatch(/is not a day on the calendar: pick one with the date box, or write it as year-month-day, like 2026-11-23\./);
      expect(res.text).toContain('<input type="date" name="date"');
      expect(res.text).not.toContain('class="board"');
    }
  });

  it('asks who is there before showing anything', async () => {
    const page = (await h.api.get('/dashboard/board').expect(200)).text;
    expect(page).toContain('Business email');
    expect(page).not.toContain('class="board"');
  });
});

describe('a job’s own page', () => {
  it('shows the job with its notes and the links to move it, change its crew and cancel it; another business’s job is a 404 in words', async () => {
    const o = await twoCrews();
    const id = await book(o, o.first, '2026-11-24T09:00:00-05:00', { customer_name: 'Ana Lopez', notes: 'Key under the mat' });
    const page = (await h.api.get(`/dashboard/jobs/${id}`).set('Cookie', o.cookie).expect(200)).text;
    const text = pageText(page);
    expect(text).toContain('Job for Ana Lopez');
    expect(text).toContain('Notes: Key under the mat.');
    for (const action of ['move', 'cancel', 'crew']) expect(page).toContain(`href="/dashboard/jobs/${id}/${action}"`);
    expect(page).toContain('href="/dashboard/board?date=2026-11-24"');
    expect(page).toMatch(/<a href="\/dashboard\/board" {2}aria-current="page">Board<\/a>/);

    const other = await twoCrews();
    const res = await h.api.get(`/dashboard/jobs/${id}`).set('Cookie', other.cookie).expect(404);
    expect(pageText(res.text)).toContain('That job is not on your schedule');
    expect(res.text).not.toContain('Ana Lopez');
  });
});
