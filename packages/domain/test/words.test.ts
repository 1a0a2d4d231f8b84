import {
  BOOK_HOST_FEE_CENTS,
  bookedByCustomerMessage,
  bookedByProMessage,
  cancelledByCustomerMessage,
  cancelledByProMessage,
  noShowRecordedMessage,
  InvalidInputError,
  NotFoundError,
  checkSummary,
  creditRequestText,
  followUpDueMessage,
  jobsTodayMessage,
  leadUpdatedMessage,
  newBookingMessage,
  noBooking,
  noOpenTimesMessage,
  notOpen,
  parseOpenTimesRequest,
  priceChanged,
  recordEvidence,
} from '../src';

const now = new Date('2030-01-07T15:00:00Z');

describe('the open-times request', () => {
  it('defaults to 7 days and keeps the window', () => {
    expect(parseOpenTimesRequest({ start_after: '09:00', finish_by: '15:00' }, now)).toEqual({
      date: undefined,
      days: 7,
      startAfter: '09:00',
      finishBy: '15:00',
      now,
    });
  });

  it('refuses a day that does not exist and a window that ends before it starts', () => {
    expect(() => parseOpenTimesRequest({ date: '2030-02-30' }, now)).toThrow('date "2030-02-30" is not a real calendar day (YYYY-MM-DD).');
    expect(() => parseOpenTimesRequest({ start_after: '12:00', finish_by: '11:00' }, now)).toThrow(InvalidInputError);
  });

  it('says one day, not "1 days", and the same sentence on every host', () => {
    expect(noOpenTimesMessage(1, '2030-01-07')).toBe('No open times in 1 day from 2030-01-07. Try later dates or a wider window.');
    expect(noOpenTimesMessage(7, '2030-01-07')).toMatch(/^No open times in 7 days from/);
  });
});

describe('booking words', () => {
  it('tells the pro who booked, through what, and for how much', () => {
    const job = { clean_type: 'deep' as const, bedrooms: 2, bathrooms: 1.5 };
    expect(newBookingMessage({ channel: 'book', clientName: 'Claude', customerName: 'Ana', label: 'Mon Jan 7, 10:00 AM', job, totalCents: 21_000 })).toBe(
      'New booking by Claude through the booking service: Ana, Mon Jan 7, 10:00 AM, deep clean (2 bd / 1.5 ba), $210.00.',
    );
    expect(newBookingMessage({ channel: 'pro', clientName: null, customerName: 'Ana', label: 'x', job, totalCents: 100 })).toMatch(
      /^New booking on your schedule: Ana/,
    ); // The business's own booking page is no "client": it reads as where the booking came from.
    expect(newBookingMessage({ channel: 'book', clientName: 'the booking page', customerName: 'Ana', label: 'x', job, totalCents: 100 })).toMatch(
      /^New booking from your booking page: Ana, x,/,
    );
  });

  it('refuses with the status and a way forward', () => {
    expect(priceChanged(21_000, 20_000).message).toContain('now $210.00, not the $200.00 you were shown. Nothing was booked');
    expect(noBooking('bk_1')).toBeInstanceOf(NotFoundError);
    expect(notOpen('That time is taken.', []).message).toBe('That time is taken. There is no open time within a day of it; ask open_times for other days.');
    expect(notOpen('That time is taken.', ['Mon 9:00 AM', 'Mon 1:00 PM']).message).toBe(
      'That time is taken. The nearest open times: Mon 9:00 AM; Mon 1:00 PM.',
    );
  });

  it('confirms what changed and who still has to be told', () => {
    expect(bookedByProMessage('Ana', 'Mon Jan 7, 10:00 AM', 123_450)).toBe(
      'Booked Ana for Mon Jan 7, 10:00 AM, 1234.50 USD. No fee: bookings the business makes are free. The customer has not been messaged; confirm with them directly.',
    );
    expect(cancelledByProMessage('Ana', 'Mon', '555-0100 or a@b.example')).toMatch(/has NOT been told: let them know \(555-0100 or a@b\.example\)\.$/);
    expect(noShowRecordedMessage('Ana', 'Mon', true)).toBe('No-show recorded for Ana on Mon; the 5 USD booking fee is waived.');
    expect(noShowRecordedMessage('Ana', 'Mon', false)).toMatch(/no fee to waive/);
    expect(cancelledByCustomerMessage('Sparkle', 'Mon', true)).toMatch(/less than 24 hours away, so Sparkle may charge/);
    expect(cancelledByCustomerMessage('Sparkle', 'Mon', false)).toBe('Cancelled Sparkle on Mon, free of charge. Sparkle has been told.');
    const booked = bookedByCustomerMessage({
      proName: 'Sparkle',
      label: 'Mon',
      address: '1 Main St',
      totalCents: 21_000,
      customerName: 'Ana',
      shared: ['name', 'phone'],
    });
    expect(booked).toContain('Booked Sparkle for Mon at 1 Main St, $210.00 in total, no added fees.');
    expect(booked).toContain('Shared with the cleaner: name, phone.');
  });

  it('keeps the fee a constant of the domain', () => {
    expect(BOOK_HOST_FEE_CENTS).toBe(500);
  });
});

describe('lead words', () => {
  it("counts follow-ups and lists today's jobs", () => {
    expect(followUpDueMessage({ number: 2, source: 'marketplace_1', leadRef: 'R-9', bedrooms: null, bathrooms: null, loggedLabel: 'Mon' })).toBe(
      'Follow-up 2 of 2 is due for the marketplace_1 lead R-9 (size not given yet, logged Mon). follow_ups_due has the draft.',
    );
    expect(jobsTodayMessage([{ time: '9:00 AM', customerName: 'Ana', address: '1 Main St' }])).toBe('1 job today: 9:00 AM Ana (1 Main St).');
    expect(leadUpdatedMessage({ contacted: true }, 1, 'quoted', null)).toBe('Follow-up 1 recorded as sent. No further follow-up is due.');
  });

  it("writes a credit request from the record and the pro's evidence", () => {
    const lines = recordEvidence({
      day: () => '2030-01-07',
      quotedAt: now,
      source: 'marketplace_2',
      leadRef: 'L-1',
      costCents: 2500,
      zip: '99999',
      servedZips: ['10001'],
      cleanType: 'standard',
      cleanTypeOffered: true,
      followUpsSent: 0,
      lastFollowUpAt: null,
    });
    expect(lines).toEqual([
      '2030-01-07: lead received through marketplace_2 (L-1), charged $25.00.',
      '2030-01-07: the request is for ZIP 99999; we serve 10001.',
    ]);
    const text = creditRequestText({ source: 'marketplace_2', leadRef: null, leadDate: '2030-01-07', costCents: 2500, reason: 'out_of_area', evidence: lines });
    expect(text.split('\n').slice(0, 4)).toEqual([
      'Lead credit request',
      'Platform: marketplace_2',
      'Lead: (no lead id recorded), received 2030-01-07',
      'Amount charged: $25.00',
    ]);
  });

  it('dates every check and never promises', () => {
    expect(checkSummary({ kind: 'marketplace_profile', subject: 'marketplace_1', passed: true, rating: 4.8, reviews: 12, checked_on: '2030-01-07' })).toBe(
      'On 2030-01-07 a profile on marketplace_1 was found, rated 4.8 of 5 from 12 reviews.',
    );
    expect(checkSummary({ kind: 'website_ownership', subject: 'a.example', passed: false, checked_on: '2030-01-07' })).toMatch(/could not confirm/);
  });
});
