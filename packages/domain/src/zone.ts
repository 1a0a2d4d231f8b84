/**
 * Fast, exact time-zone arithmetic for the hot paths (open times list hundreds of starts).
 * A zone's UTC offset only changes at instants aligned to 15 minutes (every real-world
 * transition is), so the offset and abbreviation are looked up once per 15-minute bucket
 * with Intl and cached. Tests check this against date-fns-tz.
 */
interface ZoneInfo {
  offsetMinutes: number;
  abbreviation: string;
}

const BUCKET = 15 * 60_000;
const MAX_CACHED = 100_000;
const formatters = new Map<string, Intl.DateTimeFormat>();
const caches = new Map<string, Map<number, ZoneInfo>>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      timeZoneName: 'short',
    });
    formatters.set(zone, f);
  }
  return f;
}

export function zoneInfoAt(ms: number, zone: string): ZoneInfo {
  const bucket = Math.floor(ms / BUCKET) * BUCKET;
  let cache = caches.get(zone);
  if (!cache) caches.set(zone, (cache = new Map<number, ZoneInfo>()));
  const hit = cache.get(bucket);
  if (hit) return hit;
  const parts: Record<string, string> = {};
  for (const p of formatterFor(zone).formatToParts(new Date(bucket))) parts[p.type] = p.value;
  const asUtc = Date.UTC(+parts.year!, +parts.month! - 1, +parts.day!, +parts.hour!, +parts.minute!, +parts.second!);
  const info = { offsetMinutes: Math.round((asUtc - bucket) / 60_000), abbreviation: parts.timeZoneName ?? '' };
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(bucket, info);
  return info;
}

/** The wall-clock fields of an instant in a zone (read with the getUTC… methods). */
export function wallClock(ms: number, zone: string): { wall: Date; info: ZoneInfo } {
  const info = zoneInfoAt(ms, zone);
  return { wall: new Date(ms + info.offsetMinutes * 60_000), info };
}

/**
 * Every instant whose wall-clock time in the zone is `localMs` (a wall time written as if
 * UTC): none in a spring-forward gap, two in a fall-back overlap, else one. Earliest first.
 */
export function instantsForWallTime(localMs: number, zone: string): number[] {
  const offsets = new Set([
    zoneInfoAt(localMs - 36 * 3_600_000, zone).offsetMinutes,
    zoneInfoAt(localMs, zone).offsetMinutes,
    zoneInfoAt(localMs + 36 * 3_600_000, zone).offsetMinutes,
  ]);
  const found = [...offsets].map((o) => localMs - o * 60_000).filter((t) => t + zoneInfoAt(t, zone).offsetMinutes * 60_000 === localMs);
  return [...new Set(found)].sort((a, b) => a - b);
}
