// Accepting a proposed turnover (issue 37, `propose` mode), as the dashboard's "Accept" runs it:
// the use case acceptProposal on a property whose calendar a real HTTP server on this machine
// serves. The proposed start is booked as a `book`-mode clean is (no fee, turnover.booked); a
// start taken meanwhile is re-planned and said so; a window nothing fits needs attention; a second
// accept, sequential or at the same moment, books nothing more.
import { newPro } from '@frontdesk/dev-env/pro-desk';
import { AIRBNB_PRODID, airbnbStay } from '@frontdesk/dev-env/ical-fixtures';
import { acceptProposal } from '@frontdesk/use-cases';
import { propertyHarness, type Auth, type Json } from './property-harness';

const { h, call, feed, fresh, bookingsOf, listed } = propertyHarness();

/** A propose-mode house whose Airbnb calendar lists one stay checking out Friday the 27th at 10:00, read once: its clean is proposed. */
async function proposedHouse(auth: Auth): Promise<{ propertyId: string; stay: Json }> {
  const { url } = feed(AIRBNB_PRODID, [airbnbStay(`a${fresh()}`, '2026-11-25', '2026-11-27')]);
  const house = {
    name: 'Lake cabin',
    address: '9 Shore Rd',
    zip: '10001',
    bedrooms: 2,
    bathrooms: 1,
    host_name: 'Hal Host',
    host_email: 'hal@example.com',
    checkout_time: '10:00',
    mode: 'propose',
    calendar_urls: [url],
  };
  const added = await call(auth, 'add_property', house);
  const synced = await call(auth, 'sync_property', { property_id: added.property_id });
  expect(synced.stays.map((s: Json) => [s.clean, s.start])).toEqual([['proposed', '2026-11-27T10:00:00-05:00']]);
  return { propertyId: added.property_id, stay: synced.stays[0] };
}

const kindsOf = async (proId: string) =>
  (await h.t.db.selectFrom('events').select('kind').where('pro_id', '=', proId).orderBy('seq').execute()).map((e) => e.kind);

describe('acceptProposal', () => {
  it('books the proposed start as a booked turnover (no fee, turnover.booked), and a second accept changes nothing', async () => {
    const { auth, pro } = await newPro(h);
    const { propertyId, stay } = await proposedHouse(auth);
    const input = { property_id: propertyId, stay_id: stay.stay_id };
    const accepted = await acceptProposal(h.t.db, pro, input, { now: h.clock.now });
    expect(accepted).toMatchObject({ outcome: 'booked', message: 'Booked the turnover at Lake cabin for Fri, Nov 27, 10:00 AM EST.' });
    const booked = await bookingsOf(pro.id);
    expect(booked.map((b) => [b.id, b.clean_type, b.customer_name, b.fee_cents, b.status, b.starts_at.toISOString()])).toEqual([
      [accepted.booking_id, 'turnover', 'Hal Host', 0, 'booked', '2026-11-27T15:00:00.000Z'],
    ]);
    expect((await kindsOf(pro.id)).filter((k) => k.startsWith('turnover.'))).toEqual(['turnover.booked']);
    expect((await listed(auth, propertyId)).stays.map((s: Json) => [s.clean, s.booking_id])).toEqual([['booked', accepted.booking_id]]);
    const again = await acceptProposal(h.t.db, pro, input, { now: h.clock.now });
    expect(again).toMatchObject({ outcome: 'already_booked', booking_id: accepted.booking_id });
    expect(again.message).toMatch(/booked already for Fri, Nov 27, 10:00 AM EST; nothing changed/);
    expect(await bookingsOf(pro.id)).toHaveLength(1);
    // Reading the calendar again keeps the booked clean as it is.
    await call(auth, 'sync_property', { property_id: propertyId });
    expect((await bookingsOf(pro.id)).map((b) => b.id)).toEqual([accepted.booking_id]);
  });

  it('re-plans to the earliest start that fits when the proposed time was taken by another booking, and says so', async () => {
    const { auth, pro } = await newPro(h);
    const { propertyId, stay } = await proposedHouse(auth);
    const other = await call(auth, 'book_job', {
      bedrooms: 2,
      bathrooms: 1,
      start: '2026-11-27T10:00:00-05:00',
      customer_name: 'Ana Lopez',
      customer_phone: '(212) 555-0100',
      address: '12 Grove St',
      zip: '10001',
    });
    const accepted = await acceptProposal(h.t.db, pro, { property_id: propertyId, stay_id: stay.stay_id }, { now: h.clock.now });
    expect(accepted.outcome).toBe('replanned');
    expect(accepted.message).toMatch(
      /^The proposed time \(Fri, Nov 27, 10:00 AM EST\) was taken meanwhile, so we booked the turnover at Lake cabin for Fri, Nov 27, /,
    );
    const turnover = (await bookingsOf(pro.id)).find((b) => b.id === accepted.booking_id)!;
    const job = (await bookingsOf(pro.id)).find((b) => b.id === other.booking_id)!;
    // After the other job (and its travel buffer), on the same day: the window runs to midnight.
    expect(turnover.starts_at.getTime()).toBeGreaterThanOrEqual(job.ends_at.getTime());
    expect(turnover.starts_at.toISOString().slice(0, 10)).toBe('2026-11-27');
    expect((await listed(auth, propertyId)).stays[0]).toMatchObject({ clean: 'booked', booking_id: accepted.booking_id });
  });

  it('marks the stay as needing attention with the reason when nothing fits any more, and books nothing', async () => {
    const { auth, pro } = await newPro(h);
    const { propertyId, stay } = await proposedHouse(auth);
    await call(auth, 'add_time_off', { start: '2026-11-27T09:00:00-05:00', end: '2026-11-28T00:00:00-05:00' });
    const accepted = await acceptProposal(h.t.db, pro, { property_id: propertyId, stay_id: stay.stay_id }, { now: h.clock.now });
    expect(accepted).toMatchObject({ outcome: 'needs_attention', booking_id: null });
    expect(accepted.message).toMatch(/^Nothing was booked: the turnover at Lake cabin needs you\. No crew is free for the whole clean after checkout/);
    expect(await bookingsOf(pro.id)).toEqual([]);
    expect((await listed(auth, propertyId)).stays[0]).toMatchObject({ clean: 'needs_attention', attention: expect.stringMatching(/^No crew is free/) });
    expect(await kindsOf(pro.id)).toContain('turnover.needs_attention');
  });

  it('books once when the proposal is accepted twice at the same moment', async () => {
    const { auth, pro } = await newPro(h);
    const { propertyId, stay } = await proposedHouse(auth);
    const input = { property_id: propertyId, stay_id: stay.stay_id };
    const both = await Promise.all([acceptProposal(h.t.db, pro, input, { now: h.clock.now }), acceptProposal(h.t.db, pro, input, { now: h.clock.now })]);
    expect(both.map((a) => a.outcome).sort()).toEqual(['already_booked', 'booked']);
    expect((await bookingsOf(pro.id)).map((b) => b.status)).toEqual(['booked']);
  });

  it('refuses a stay that is not this property’s, and another business’s property', async () => {
    const { auth, pro } = await newPro(h);
    const other = await newPro(h);
    const { propertyId, stay } = await proposedHouse(auth);
    await expect(acceptProposal(h.t.db, pro, { property_id: propertyId, stay_id: 'stay_nope' }, { now: h.clock.now })).rejects.toThrow(
      /no longer in this property/,
    );
    await expect(acceptProposal(h.t.db, other.pro, { property_id: propertyId, stay_id: stay.stay_id }, { now: h.clock.now })).rejects.toThrow(/No property/);
    expect(await bookingsOf(pro.id)).toEqual([]);
  });
});
