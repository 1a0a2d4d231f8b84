import { mailHtml, messageSettingsStamps, remindersOwed, reviewRequestOwed } from '../src';

const H = 3_600_000;
const start = new Date('2026-12-02T14:00:00Z');
const ago = (hours: number) => new Date(start.getTime() - hours * H);

describe('remindersOwed', () => {
  it('owes each offset at start minus its hours when the job was booked before then', () => {
    const owed = remindersOwed({ offsets: [48, 2], start, startSetAt: ago(100), settingSetAt: null, now: ago(50) });
    expect(owed.map((r) => [r.offsetHours, r.at.toISOString()])).toEqual([
      [48, ago(48).toISOString()],
      [2, ago(2).toISOString()],
    ]);
  });

  it('owes a reminder already past when booked at once, only the nearest, and none when the job was then within 12 hours', () => {
    const late = remindersOwed({ offsets: [48, 26, 2], start, startSetAt: ago(25), settingSetAt: null, now: ago(25) });
    expect(late.map((r) => [r.offsetHours, r.at.toISOString()])).toEqual([
      [2, ago(2).toISOString()],
      [26, ago(25).toISOString()],
    ]);
    const soon = remindersOwed({ offsets: [24], start, startSetAt: ago(11), settingSetAt: null, now: ago(11) });
    expect(soon).toEqual([]);
  });

  it('judges a changed setting like a late booking, and owes nothing once the job has started', () => {
    const changed = remindersOwed({ offsets: [24], start, startSetAt: ago(100), settingSetAt: ago(20), now: ago(20) });
    expect(changed.map((r) => r.at.toISOString())).toEqual([ago(20).toISOString()]);
    expect(remindersOwed({ offsets: [24], start, startSetAt: ago(100), settingSetAt: null, now: start })).toEqual([]);
  });
});

describe('reviewRequestOwed', () => {
  const end = new Date('2026-12-02T16:00:00Z');
  it('is owed the delay after the end, never for a job whose time passed before requests were turned on, nor a week late', () => {
    expect(reviewRequestOwed({ end, delayHours: 3, settingSetAt: null, now: end })?.toISOString()).toBe('2026-12-02T19:00:00.000Z');
    expect(reviewRequestOwed({ end, delayHours: 3, settingSetAt: new Date('2026-12-02T20:00:00Z'), now: end })).toBeNull();
    expect(reviewRequestOwed({ end, delayHours: 3, settingSetAt: null, now: new Date('2026-12-10T00:00:00Z') })).toBeNull();
  });
});

describe('messageSettingsStamps', () => {
  it('keeps the time of a setting saved again unchanged', () => {
    const before = { customer_reminder_hours: [24], review_link: null, review_delay_hours: 2, customer_reminders_set_at: null, review_request_set_at: null };
    const now = new Date('2026-12-01T00:00:00Z');
    expect(messageSettingsStamps(before, { ...before }, now)).toEqual({ customer_reminders_set_at: null, review_request_set_at: null });
    expect(messageSettingsStamps(before, { ...before, customer_reminder_hours: [48] }, now).customer_reminders_set_at).toBe(now);
  });
});

describe('mailHtml', () => {
  it('escapes every value, links addresses on their own line, and has no image', () => {
    const out = mailHtml('Hello <b>Ana</b> & co,\n\nYour page:\nhttps://book.example/x?a=1&b="2"\n');
    expect(out).toContain('Hello &lt;b&gt;Ana&lt;/b&gt; &amp; co,');
    expect(out).toContain('<a href="https://book.example/x?a=1&amp;b=&quot;2&quot;">');
    expect(out).not.toMatch(/<img/);
  });
});
