import {
  InvalidInputError,
  OWNER_AGENDA_LATE_HOURS,
  agendaDue,
  crewAgendaMail,
  etaWords,
  formatTimeOfDay,
  onMyWayAddress,
  onMyWayMail,
  ownerAgendaMail,
  type AgendaJob,
  type OnMyWayJob,
} from '@frontdesk/domain';

const NY = 'America/New_York';

describe('agendaDue', () => {
  it('is not due before its local time, due at it, and late past the late hours', () => {
    const at = '07:00';
    expect(agendaDue(new Date('2026-11-24T11:59:00Z'), { zone: NY, at })).toBeNull();
    expect(agendaDue(new Date('2026-11-24T12:00:00Z'), { zone: NY, at })).toEqual({
      day: '2026-11-24',
      dueAt: new Date('2026-11-24T12:00:00Z'),
      late: false,
    });
    const later = new Date(Date.parse('2026-11-24T12:00:00Z') + OWNER_AGENDA_LATE_HOURS * 3_600_000 + 60_000);
    expect(agendaDue(later, { zone: NY, at })?.late).toBe(true);
  });

  it('is never due when the business turned it off', () => {
    expect(agendaDue(new Date('2026-11-24T20:00:00Z'), { zone: NY, at: null })).toBeNull();
  });

  it('comes due at 7:00 local on the spring-forward day (EDT, UTC-4) and on the fall-back day (EST, UTC-5)', () => {
    expect(agendaDue(new Date('2027-03-14T10:59:00Z'), { zone: NY, at: '07:00' })).toBeNull();
    expect(agendaDue(new Date('2027-03-14T11:00:00Z'), { zone: NY, at: '07:00' })?.dueAt).toEqual(new Date('2027-03-14T11:00:00Z'));
    expect(agendaDue(new Date('2026-11-01T11:00:00Z'), { zone: NY, at: '07:00' })).toBeNull();
    expect(agendaDue(new Date('2026-11-01T12:00:00Z'), { zone: NY, at: '07:00' })).toMatchObject({
      day: '2026-11-01',
      dueAt: new Date('2026-11-01T12:00:00Z'),
    });
  });

  it('reads a time in the spring-forward gap as 3:00 EDT, and a time that happens twice on fall-back day as its first', () => {
    expect(agendaDue(new Date('2027-03-14T07:00:00Z'), { zone: NY, at: '02:30' })?.dueAt).toEqual(new Date('2027-03-14T07:00:00Z'));
    expect(agendaDue(new Date('2027-03-14T06:59:00Z'), { zone: NY, at: '02:30' })).toBeNull();
    expect(agendaDue(new Date('2026-11-01T05:30:00Z'), { zone: NY, at: '01:30' })?.dueAt).toEqual(new Date('2026-11-01T05:30:00Z'));
  });
});

describe('onMyWayAddress', () => {
  const now = new Date('2026-11-24T13:00:00Z'); // 8:00 AM EST
  const job = (over: Partial<OnMyWayJob> = {}): OnMyWayJob => ({
    id: 'bk_1',
    status: 'booked',
    starts_at: new Date('2026-11-24T14:00:00Z'),
    ends_at: new Date('2026-11-24T16:00:00Z'),
    customer_email: ' ana@example.com ',
    ...over,
  });
  const o = { label: 'Tue, Nov 24, 9:00 AM EST', zone: NY, now, platformLead: false };

  it("is the customer's email, trimmed, for a live job of today still ahead", () => {
    expect(onMyWayAddress(job(), o)).toBe('ana@example.com');
  });

  it('refuses, saying why, a cancelled job, a no-show, an ended job, a job of another day, a platform lead and a job with no email', () => {
    const refusal = (j: OnMyWayJob, platformLead = false) => {
      try {
        onMyWayAddress(j, { ...o, platformLead });
      } catch (err) {
        expect(err).toBeInstanceOf(InvalidInputError);
        return (err as Error).message;
      }
      throw new Error('not refused');
    };
    expect(refusal(job({ status: 'cancelled' }))).toMatch(/was cancelled/);
    expect(refusal(job({ status: 'no_show' }))).toMatch(/no-show/);
    expect(refusal(job({ ends_at: new Date('2026-11-24T12:00:00Z') }))).toMatch(/already ended/);
    expect(refusal(job({ starts_at: new Date('2026-11-25T14:00:00Z'), ends_at: new Date('2026-11-25T16:00:00Z') }))).toMatch(/only on the day/);
    expect(refusal(job(), true)).toMatch(/lead platform/);
    expect(refusal(job({ customer_email: '  ' }))).toMatch(/no customer email/);
  });
});

describe('the routine mails', () => {
  it('says the ETA in hours and minutes', () => {
    expect(etaWords(20)).toBe('about 20 minutes');
    expect(etaWords(60)).toBe('about 1 hour');
    expect(etaWords(95)).toBe('about 1 hour 35 minutes');
  });

  it('"on my way" is in the business\'s name, says the ETA when given, and carries no link', () => {
    const mail = onMyWayMail({ proName: 'Sparkle', proPhone: '(212) 555-0111', customerName: 'Ana', address: '12 Grove St', etaMinutes: 25 });
    expect(mail.subject).toBe('Sparkle is on the way');
    expect(mail.text).toContain('Our crew from Sparkle is on the way to 12 Grove St. We expect to arrive in about 25 minutes.');
    expect(mail.text).toContain('(212) 555-0111');
    expect(mail.text).not.toMatch(/https?:|www\./);
    expect(onMyWayMail({ proName: 'Sparkle', proPhone: null, customerName: 'Ana', address: '12 Grove St', etaMinutes: null }).text).not.toMatch(/arrive/);
  });

  it("lists the owner's jobs per crew and a crew's own jobs, with address, access and phone; a fall-back 1:30 says which", () => {
    const j = (over: Partial<AgendaJob>): AgendaJob => ({
      time: '9:00 AM EST',
      customerName: 'Ana',
      address: '12 Grove St',
      zip: '10001',
      accessDetails: 'Key in\nthe lockbox 1234',
      customerPhone: '(212) 555-0100',
      crewName: 'Crew A',
      ...over,
    });
    const firstHalfPast = formatTimeOfDay(new Date('2026-11-01T05:30:00Z'), NY);
    expect(firstHalfPast).toBe('1:30 AM EDT');
    const jobs = [
      j({ time: firstHalfPast }),
      j({ customerName: 'Bo', crewName: 'Crew B', accessDetails: null, customerPhone: null }),
      j({ customerName: 'Cy' }),
    ];
    const owner = ownerAgendaMail({ proName: 'Sparkle', dayLabel: 'Sun, Nov 1', jobs });
    expect(owner.subject).toBe('Sparkle: 3 jobs today, Sun, Nov 1');
    expect(owner.text).toContain(
      'Crew A (2 jobs)\n- 1:30 AM EDT: Ana\n  12 Grove St, 10001\n  Access: Key in the lockbox 1234\n  Phone: (212) 555-0100\n- 9:00 AM EST: Cy',
    );
    expect(owner.text).toContain('Crew B (1 job)\n- 9:00 AM EST: Bo\n  12 Grove St, 10001\n\n');
    const crew = crewAgendaMail({ proName: 'Sparkle', crewName: 'Crew B', dayLabel: 'Sun, Nov 1', jobs: [jobs[1]!] });
    expect(crew.subject).toBe('Crew B: 1 job today for Sparkle, Sun, Nov 1');
    expect(crew.text).toContain('Bo');
    expect(crew.text).not.toContain('Ana');
  });
});
