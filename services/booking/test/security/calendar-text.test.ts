// Text in the calendars (issue 32, item 2): a customer's .ics from the manage page, the mailed
// one, and the business's and crew's feeds are written by one iCalendar writer, which escapes
// every line break and drops every other control character in every text value, whatever a
// row holds (rows stored before one-line fields refused them, and multi-line notes).
import ICAL from 'ical.js';
import { isSingleLine } from '@frontdesk/domain';
import { newCalendarAddress } from '@frontdesk/use-cases';
import { booking, bothHostsPerFile, newCleaner, bookCleaning } from '@frontdesk/dev-env/both-hosts';

const h = bothHostsPerFile();

const ADDRESS = '5 Cal St\rATTENDEE:mailto:x@y\rX-INJ:1';

/** A calendar's lines that hold what no content line may (a tab may): a CR or LF inside it, another control character, a separator or an override. */
function brokenLines(ics: string): string[] {
  expect(ics.endsWith('\r\n')).toBe(true);
  return ics
    .slice(0, -2)
    .split('\r\n')
    .filter((line) => !isSingleLine(line.replaceAll('\t', '')));
}

/** The one event of a booking in a calendar, as a calendar program reads it, with every property it found. */
function eventIn(ics: string, bookingId: string) {
  const vevent = new ICAL.Component(ICAL.parse(ics)).getAllSubcomponents('vevent').find((v) => String(v.getFirstPropertyValue('uid')).startsWith(bookingId))!;
  return { names: vevent.getAllProperties().map((p) => p.name), event: new ICAL.Event(vevent) };
}

describe('a stored address with bare CRs', () => {
  it('stays inside LOCATION, as escaped line breaks, in the manage page .ics and the business feed', async () => {
    const { pro } = await newCleaner(h);
    const booked = await bookCleaning(h, booking(pro.id, { notes: 'Gate 12\r\nRing twice' })).expect(200);
    // As a row stored before the address was refused its CRs, or by any other path, would hold it.
    await h.t.db
      .updateTable('bookings')
      .set({ address: ADDRESS, customer_name: 'Evil\u2028ATTENDEE:mailto:a@b', notes: 'Gate 12\r\nRing\u0085X-INJ:2\u202e twice\u001b[2J' })
      .where('id', '=', booked.body.booking_id)
      .execute();
    const files = {
      'the manage page .ics': (await h.book.get(`/manage/${booked.body.manage_token}/booking.ics`).expect(200)).text,
      'the business feed': (await h.pro.get(`/calendar/${await newCalendarAddress(h.t.db, pro.id, h.clock.now)}.ics`).expect(200)).text,
    };
    for (const [what, ics] of Object.entries(files)) {
      expect([what, brokenLines(ics)]).toEqual([what, []]);
      const { names, event } = eventIn(ics, booked.body.booking_id);
      expect([what, names.filter((n) => n === 'attendee' || n.startsWith('x-'))]).toEqual([what, []]);
      expect([what, event.location]).toEqual([what, '5 Cal St\nATTENDEE:mailto:x@y\nX-INJ:1, 10001']);
    }
    // The business's feed carries the name and the notes too: each line break a line of the description, the rest dropped.
    const { event } = eventIn(files['the business feed'], booked.body.booking_id);
    expect(event.summary).toBe('Standard clean for Evil\nATTENDEE:mailto:a@b');
    expect(event.description).toContain('Notes: Gate 12\nRing\nX-INJ:2 twice[2J');
  });
});
