import { deliverOutbox } from '@frontdesk/db';
import { createTestDatabase, type TestDatabase } from '@frontdesk/db/testing';
import { createBooking } from '@frontdesk/use-cases';
import { proBookingRequest } from '@frontdesk/use-cases/testing';
import pino from 'pino';
import { makePro } from '@frontdesk/dev-env/factories';
import { createMailTransport, printedMail } from '../src';

// `pnpm start` without SMTP_URL prints each mail to its terminal: a customer's booking
// confirmation shows there whole, on lines of its own, with its calendar file named.
let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t.drop());

it("prints a customer's booking confirmation and the owner's notice on lines of their own when there is no SMTP_URL", async () => {
  const { pro } = await makePro(t.db, { owner_email: 'owner@print.example' });
  const now = new Date();
  const start = new Date(now.getTime() + 3 * 86_400_000);
  start.setUTCHours(15, 0, 0, 0);
  const { manageToken } = await createBooking(
    t.db,
    proBookingRequest(pro.id, start, now, {
      channel: 'book',
      manageToken: true,
      customer: { name: 'Dana', phone: null, email: 'dana@print.example' },
      mail: { bookingUrl: 'http://book.localhost', dashboardUrl: 'http://pro.localhost/dashboard' },
    }),
  );
  const transport = createMailTransport({ from: 'desk@example.com', printLocally: true }, pino({ level: 'silent' }))!;
  const printed: string[] = [];
  const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    printed.push(String(chunk));
    return true;
  });
  try {
    expect(await deliverOutbox(t.db, transport)).toBe(2);
  } finally {
    write.mockRestore();
  }
  // Both were queued in one transaction: they may leave in either order.
  const customer = printed.find((p) => p.includes('\nMail to dana@'));
  const owner = printed.find((p) => p.includes('\nMail to owner@'));
  expect(printed).toHaveLength(2);
  expect(customer).toMatch(/^\n={72}\nMail to dana@print\.example \(no SMTP_URL: printed here, not sent\)\nSubject: Booked: /);
  expect(customer!.split('\n')).toContain(`http://book.localhost/manage/${manageToken}`);
  expect(customer).toMatch(/\n\[attached: cleaning\.ics\]\n={72}\n\n$/);
  expect(owner).toMatch(/^\n={72}\nMail to owner@print\.example .*\nSubject: New booking: Dana, /);
  expect(owner).not.toContain('[attached');
});

it('prints a subject and an address stored with line breaks on their one line each', () => {
  const printed = printedMail({ to: 'owner@print.example\r\nX', subject: 'New booking: Evil\r\nBcc: x@y.example\u2028\u0085Z', text: 'Booked.' });
  expect(printed.split('\n').slice(2, 4)).toEqual([
    'Mail to owner@print.example X (no SMTP_URL: printed here, not sent)',
    'Subject: New booking: Evil Bcc: x@y.example Z',
  ]);
  expect(printed).not.toContain('\r');
});
