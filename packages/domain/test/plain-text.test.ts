import { asOneLine, icalText, icalendar, isSingleLine, linesOf, MULTI_LINE_PATTERN } from '../src';

// The text rules (plain-text.ts) and the writers that must hold text to them whatever was
// stored: a calendar's TEXT values (RFC 5545 §3.3.11) and a mail's header values.

const ATTACK = '5 Cal St\rATTENDEE:mailto:x@y\rX-INJ:1';

describe('one-line text', () => {
  it('holds letters of every script, emoji and joiners, but no control, separator or override character', () => {
    for (const ok of ['Ana López', 'Łukasz Żółć', '李雷', 'Zoë 😀', 'مريم', 'می‌خواهم', '👩‍👩‍👧', '12 Grove St, Apt 3'])
      expect([ok, isSingleLine(ok)]).toEqual([ok, true]);
    for (const bad of [
      'a\rb',
      'a\nb',
      'a\tb',
      'a\u0000b',
      'a\u001bb',
      'a\u007fb',
      'a\u0085b',
      'a\u009bb',
      'a\u2028b',
      'a\u2029b',
      'a\u202eb',
      'a\u202ab',
      'a\u2066b',
      'a\u2069b',
    ])
      expect([bad, isSingleLine(bad)]).toEqual([bad, false]);
  });

  it('is what a multi-line field holds, but for line breaks and tabs', () => {
    const multi = new RegExp(MULTI_LINE_PATTERN, 'u');
    for (const ok of ['Gate 12\r\nRing twice', 'a\rb', 'a\nb', 'a\tb', 'a\u0085b', 'a\u2028b', 'a\u2029b']) expect([ok, multi.test(ok)]).toEqual([ok, true]);
    for (const bad of ['a\u0000b', 'a\u001bb', 'a\u000bb', 'a\u007fb', 'a\u009bb', 'a\u202eb', 'a\u2067b'])
      expect([bad, multi.test(bad)]).toEqual([bad, false]);
  });

  it('is made of any stored text for a mail header: each run of such characters one space', () => {
    expect(asOneLine('New booking: Evil\r\nBcc: x@y.example')).toBe('New booking: Evil Bcc: x@y.example');
    expect(asOneLine('Evil\u2028\u0085Bcc\u202e: x')).toBe('Evil Bcc : x');
    expect(asOneLine('Ana López, Tue, Nov 24')).toBe('Ana López, Tue, Nov 24');
  });

  it('splits at every kind of line break for a writer of lines, dropping what no text may hold', () => {
    expect(linesOf('a\r\nb\rc\nd\u0085e\u2028f\u2029g')).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
    expect(linesOf('tab\tstays\u0000\u001b[31m\u202e')).toEqual(['tab\tstays[31m']);
  });
});

describe('iCalendar TEXT values', () => {
  it('escape every line break as \\n, so a bare CR never ends a content line', () => {
    expect(icalText(ATTACK)).toBe('5 Cal St\\nATTENDEE:mailto:x@y\\nX-INJ:1');
    expect(icalText('a\r\nb\nc\u0085d\u2028e\u2029f')).toBe('a\\nb\\nc\\nd\\ne\\nf');
  });

  it('escape backslash, semicolon and comma, and drop the other control and override characters', () => {
    expect(icalText('12 Grove St, Apt 3; back\\door')).toBe('12 Grove St\\, Apt 3\\; back\\\\door');
    expect(icalText('Dana\u001b[2J\u007f\u009b\u202e Park')).toBe('Dana[2J Park');
  });

  it('leave a calendar whose every line ends in CRLF and holds no control character but a tab', () => {
    const at = new Date('2026-11-24T14:00:00Z');
    const ics = icalendar({
      name: `Maids\r\nX-WR-INJ:1`,
      zone: 'America/New_York',
      now: at,
      events: [
        {
          uid: 'bk_1@book.test',
          start: at,
          end: new Date(at.getTime() + 3_600_000),
          summary: 'Clean for Evil\u2028ATTENDEE:mailto:x@y',
          location: ATTACK,
          description: 'Notes: gate\r\ncode\u0085X-INJ:2',
          cancelled: false,
          sequence: 0,
          updatedAt: at,
        },
      ],
    });
    expect(ics.endsWith('\r\n')).toBe(true);
    const lines = ics.slice(0, -2).split('\r\n');
    expect(lines.filter((l) => !isSingleLine(l.replaceAll('\t', '')))).toEqual([]);
    const unfolded = ics.replace(/\r\n /g, '').split('\r\n');
    expect(unfolded.filter((l) => /^(ATTENDEE|X-INJ|X-WR-INJ)/.test(l))).toEqual([]);
    expect(unfolded).toContain('LOCATION:5 Cal St\\nATTENDEE:mailto:x@y\\nX-INJ:1');
    expect(unfolded).toContain('X-WR-CALNAME:Maids\\nX-WR-INJ:1');
  });
});
