/**
 * Open times grouped by the business's day, as the booking pages and the MCP Apps views list
 * them: a start's day is the date its ISO text names (written in the business's zone), the
 * day's name is its label without the time, and each time is the label's last part.
 */
export interface DayOfTimes<T> {
  day: string;
  times: (T & { time: string })[];
}

export function timesByDay<T extends { start: string; label: string }>(times: readonly T[]): DayOfTimes<T>[] {
  const byDay = new Map<string, DayOfTimes<T>>();
  for (const t of times) {
    const parts = t.label.split(', ');
    const key = t.start.slice(0, 10);
    const day = byDay.get(key) ?? { day: parts.slice(0, -1).join(', '), times: [] };
    day.times.push({ ...t, time: parts.at(-1)! });
    byDay.set(key, day);
  }
  return [...byDay.values()];
}
