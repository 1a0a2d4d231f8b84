// booking_status for a turnover clean (issue 37, point 5): the clean the feed worker booked for a
// host's stay names its property, as schedule and the calendar feed do.
import { randomBytes } from 'node:crypto';
import { hashSecret } from '@frontdesk/db/testing';
import { asPublic, bookJob, bothHostsPerFile, newCleaner, proBooking } from '@frontdesk/dev-env/both-hosts';
import { AIRBNB_PRODID, CalendarServer, airbnbStay, calendar } from '@frontdesk/dev-env/ical-fixtures';

const h = bothHostsPerFile();
const cal = new CalendarServer();
beforeAll(() => cal.start());
afterAll(() => cal.stop());

it("answers a turnover's property_id in booking_status, and null for a clean that is no turnover", async () => {
  const { auth } = await newCleaner(h);
  const url = cal.serve('/house.ics', { body: calendar(AIRBNB_PRODID, [airbnbStay('bs1', '2026-11-25', '2026-11-27')]) });
  const house = await h.pro
    .post('/api/v1/add_property')
    .set(auth)
    .send({
      name: 'Lake cabin',
      address: '9 Lake Rd',
      zip: '10001',
      bedrooms: 1,
      bathrooms: 1,
      host_name: 'Ho Host',
      host_phone: '212 555 0101',
      calendar_urls: [url],
    })
    .expect(200);
  const [stay] = (await h.pro.post('/api/v1/sync_property').set(auth).send({ property_id: house.body.property_id }).expect(200)).body.stays;
  expect(stay).toMatchObject({ clean: 'booked' });
  // The business's own booking carries no manage token; give it one, as a host's arrangement would have.
  const token = randomBytes(32).toString('base64url');
  await h.t.db
    .updateTable('bookings')
    .set({ manage_token_hash: hashSecret(token) })
    .where('id', '=', stay.booking_id)
    .execute();
  const status = await h.book.get('/api/v1/booking_status').set(asPublic).query({ manage_token: token }).expect(200);
  expect(status.body).toMatchObject({ booking_id: stay.booking_id, property_id: house.body.property_id, job: { clean_type: 'turnover' } });

  const other = await bookJob(h, auth, proBooking()).expect(200);
  expect(other.body.property_id).toBeNull();
});
