import { formatInTimeZone, fromZonedTime } from 'date-fns-tz';
import { formatLabel, formatLocalIso, localDate, wallTimeToInstant } from '../src';

// The fast zone arithmetic must agree with date-fns-tz, the reference, everywhere:
// half-hour DST (Lord Howe), 45-minute offsets, southern-hemisphere DST, and UTC.
const ZONES = [
  'America/New_York',
  'America/Los_Angeles',
  'Europe/London',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'Pacific/Chatham',
  'America/Sao_Paulo',
  'Pacific/Auckland',
  'America/St_Johns',
  'UTC',
];

// A fixed pseudo-random walk over 2026-2028, so failures reproduce.
function* instants(count: number): Generator<Date> {
  let x = 123456789;
  const from = Date.UTC(2026, 0, 1);
  const span = Date.UTC(2029, 0, 1) - from;
  for (let i = 0; i < count; i += 1) {
    x = (x * 1103515245 + 12345) % 2147483648;
    yield new Date(from + Math.floor(((x / 2147483648) * span) / 60_000) * 60_000);
  }
}

describe('zone arithmetic', () => {
  it.each(ZONES)('formats instants in %s exactly as date-fns-tz does', (zone) => {
    for (const t of instants(800)) {
      expect(formatLocalIso(t, zone)).toBe(formatInTimeZone(t, zone, "yyyy-MM-dd'T'HH:mm:ssxxx"));
      expect(formatLabel(t, zone)).toBe(formatInTimeZone(t, zone, 'EEE, MMM d, h:mm a zzz'));
      expect(localDate(t, zone)).toBe(formatInTimeZone(t, zone, 'yyyy-MM-dd'));
    }
  });

  it.each(ZONES)('turns wall times in %s into the instant date-fns-tz finds, or null in a gap', (zone) => {
    for (const t of instants(400)) {
      const wall = formatInTimeZone(t, zone, "yyyy-MM-dd'T'HH:mm");
      const [date, hhmm] = wall.split('T') as [string, string];
      const [h, m] = hhmm.split(':').map(Number) as [number, number];
      const ours = wallTimeToInstant(date, h * 60 + m, zone);
      expect(ours).not.toBeNull();
      // The wall time exists (it came from an instant); both readings name that wall time.
      expect(formatInTimeZone(ours!, zone, "yyyy-MM-dd'T'HH:mm")).toBe(wall);
      expect(formatInTimeZone(fromZonedTime(`${wall}:00`, zone), zone, "yyyy-MM-dd'T'HH:mm")).toBe(wall);
      // In an overlap ours is the earlier of the two instants.
      expect(ours!.getTime()).toBeLessThanOrEqual(t.getTime());
    }
    if (zone === 'America/New_York') {
      expect(wallTimeToInstant('2027-03-14', 150, zone)).toBeNull();
      expect(wallTimeToInstant('2026-11-01', 90, zone)?.toISOString()).toBe('2026-11-01T05:30:00.000Z');
    }
    if (zone === 'Australia/Lord_Howe') {
      // Clocks go from 02:00 to 02:30 on the first Sunday of October.
      expect(wallTimeToInstant('2026-10-04', 135, zone)).toBeNull();
    }
  });
});
