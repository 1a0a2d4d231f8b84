import {
  FREE_CANCEL_HOURS,
  MAILED_SERIES_VISITS,
  bookingConfirmationMail,
  cancelConfirmationMail,
  customerMailAddress,
  moveConfirmationMail,
  ownerNoticeAddress,
  ownerNoticeMail,
  type MailedBooking,
} from '../src';

describe('who is mailed about a booking', () => {
  it('mails the customer only about their own change to their own book-host booking', () => {
    const booked = { channel: 'book' as const, customer_email: ' dana@example.com ' };
    expect(customerMailAddress(booked, 'customer')).toBe('dana@example.com');
    // The business cancelled or moved it: the business tells its customer (pro rule 5).
    expect(customerMailAddress(booked, 'pro')).toBeNull();
    // The business's own booking, a platform lead's included: never a mail, never a link (booking rule 6).
    expect(customerMailAddress({ channel: 'pro', customer_email: 'lead@example.com' }, 'customer')).toBeNull();
    expect(customerMailAddress({ channel: 'pro', customer_email: 'lead@example.com' }, 'pro')).toBeNull();
    expect(customerMailAddress({ channel: 'book', customer_email: null }, 'customer')).toBeNull();
    expect(customerMailAddress({ channel: 'book', customer_email: '  ' }, 'customer')).toBeNull();
  });

  it("tells the owner of a customer's change at the sign-in address, else the business email, unless turned off", () => {
    const pro = { owner_email: 'owner@biz.example', email: 'hello@biz.example', email_me_customer_changes: true };
    expect(ownerNoticeAddress(pro, 'customer')).toBe('owner@biz.example');
    expect(ownerNoticeAddress({ ...pro, owner_email: null }, 'customer')).toBe('hello@biz.example');
    expect(ownerNoticeAddress({ ...pro, owner_email: null, email: null }, 'customer')).toBeNull();
    expect(ownerNoticeAddress({ ...pro, email_me_customer_changes: false }, 'customer')).toBeNull();
    // The owner's own changes are not news to the owner.
    expect(ownerNoticeAddress(pro, 'pro')).toBeNull();
  });
});

const booking: MailedBooking = {
  proName: 'Bright Homes',
  proPhone: '212-555-0142',
  proEmail: null,
  customerName: 'Dana',
  label: 'Fri Nov 27, 9:00 AM EST',
  address: '9 Elm St',
  zip: '10001',
  cleanType: 'standard',
  bedrooms: 2,
  bathrooms: 1,
  totalCents: 18_000,
  frequency: 'once',
};
const links = (text: string) => text.match(/https?:\/\/\S+/g) ?? [];

describe('the mails', () => {
  it('confirms a booking with its page as the only link, the price, the free-cancel window and how to reach the cleaner', () => {
    const mail = bookingConfirmationMail(booking, { manageUrl: 'https://book.example/manage/tok', series: null });
    expect(mail.subject).toBe('Booked: Bright Homes, Fri Nov 27, 9:00 AM EST');
    expect(links(mail.text)).toEqual(['https://book.example/manage/tok']);
    expect(mail.text).toContain('$180.00 in total, no added fees');
    expect(mail.text).toContain(`free until ${FREE_CANCEL_HOURS} hours before the start`);
    expect(mail.text).toContain('To reach Bright Homes: phone 212-555-0142.');
    expect(mail.text).not.toContain('repeats');
  });

  it("lists a series' first visits and counts the rest", () => {
    const visitLabels = Array.from({ length: MAILED_SERIES_VISITS + 2 }, (_, i) => `visit ${i + 1}`);
    const mail = bookingConfirmationMail(booking, { manageUrl: 'https://book.example/manage/tok', series: { frequency: 'biweekly', visitLabels } });
    expect(mail.text).toContain('This cleaning repeats (every two weeks)');
    expect(mail.text).toContain(`  - visit ${MAILED_SERIES_VISITS}\n  - and 2 more visits`);
    expect(mail.text).not.toContain(`visit ${MAILED_SERIES_VISITS + 1}`);
  });

  it('prices a repeating cleaning per visit, never as a total', () => {
    const weekly = bookingConfirmationMail({ ...booking, frequency: 'weekly' }, { manageUrl: 'https://book.example/manage/tok', series: null });
    expect(weekly.text).toContain('$180.00 a visit (weekly), no added fees');
    expect(weekly.text).not.toContain('in total');
  });

  it('confirms a move with the booking page it was moved from, and a cancellation without a link', () => {
    const moved = moveConfirmationMail(booking, { fromLabel: 'Thu Nov 26, 9:00 AM EST', laterMoved: 2, manageUrl: 'https://book.example/manage/tok' });
    expect(moved.text).toContain(
      'moved from Thu Nov 26, 9:00 AM EST to Fri Nov 27, 9:00 AM EST, at the same price ($180.00 in total). 2 later visits of the series were moved too.',
    );
    expect(links(moved.text)).toEqual(['https://book.example/manage/tok']);
    expect(moveConfirmationMail(booking, { fromLabel: 'Thu Nov 26, 9:00 AM EST', laterMoved: 0, manageUrl: null }).text).toContain(
      'Your booking page is still at the link in your booking confirmation email.',
    );
    const late = cancelConfirmationMail(booking, { late: true, laterCancelled: 0 });
    expect(late.subject).toBe('Cancelled: Bright Homes, Fri Nov 27, 9:00 AM EST');
    expect(late.text).toContain(`less than ${FREE_CANCEL_HOURS} hours away`);
    expect(cancelConfirmationMail(booking, { late: false, laterCancelled: 1 }).text).toContain('1 later visit of the series was cancelled too.');
    expect(links(late.text)).toEqual([]);
  });

  it("gives the owner the business's own notification, where, which crew, the customer's contact and the dashboard", () => {
    const mail = ownerNoticeMail({
      kind: 'moved',
      customerName: 'Dana',
      label: 'Fri Nov 27, 9:00 AM EST',
      message: 'Booking moved by the customer: Dana, from A to B.',
      address: '9 Elm St',
      zip: '10001',
      crewName: 'Crew 2',
      contact: { phone: null, email: 'dana@example.com', notes: 'Side door' },
      dashboardUrl: 'https://pro.example/dashboard',
    });
    expect(mail.subject).toBe('Booking moved: Dana, Fri Nov 27, 9:00 AM EST');
    expect(mail.text).toContain(
      'Booking moved by the customer: Dana, from A to B.\n\nAddress: 9 Elm St, 10001\nCrew: Crew 2\nEmail: dana@example.com\nNotes: Side door',
    );
    expect(mail.text).toContain('Your schedule: https://pro.example/dashboard/schedule');
    expect(mail.text).toContain('"Email me when a customer books, moves or cancels" is on in your settings (https://pro.example/dashboard/settings/notices)');
    // The owner reads the dashboard's words, never an API field or operation name.
    expect(mail.text).not.toMatch(/email_me_customer_changes|update_business/);
  });
});
