import { WEEKDAYS, fields } from '@frontdesk/domain';
import { validateInput } from '@frontdesk/http';
import { crewChangeFields } from '@frontdesk/pro-desk';
import type { CrewUpdate } from '@frontdesk/use-cases';
import { UsageError, type Flags } from './context';

/** Flags as the operations' inputs: the operation's own schema judges what they make. */

const WEEKDAY_BY_PREFIX = new Map(WEEKDAYS.map((d) => [d.slice(0, 3), d]));

/** `saturday=closed`, `sat=`, `mon=08:00-12:00,13:00-17:00` as update_business's working_hours. */
export function hoursFromFlags(flags: string[]): Record<string, string[]> {
  const hours: Record<string, string[]> = {};
  for (const flag of flags) {
    const [dayText = '', windows = ''] = flag.split('=', 2);
    const day = WEEKDAY_BY_PREFIX.get(dayText.trim().toLowerCase().slice(0, 3));
    if (!day || !flag.includes('=')) throw new UsageError(`--hours "${flag}": write <weekday>=closed or <weekday>=HH:MM-HH:MM[,HH:MM-HH:MM].`);
    const text = windows.trim().toLowerCase();
    hours[day] = text === '' || text === 'closed' ? [] : text.split(',').map((w) => w.trim());
  }
  return hours;
}

/** `name=value` flags as an object of numbers (or text where a name takes text). */
function pairs(flags: string[], flag: string, text: readonly string[] = []): Record<string, number | string> {
  const out: Record<string, number | string> = {};
  for (const pair of flags) {
    const [name = '', value = ''] = pair.split('=', 2);
    if (!pair.includes('=') || !name) throw new UsageError(`--${flag} "${pair}": write <name>=<value>.`);
    if (text.includes(name)) {
      out[name] = value;
      continue;
    }
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n)) throw new UsageError(`--${flag} ${name}: "${value}" is not a number.`);
    out[name] = n;
  }
  return out;
}

/** The flags of `pro set` as an update_business input: the same shape, so the same checks. */
export function settingsFromFlags(values: Flags): Record<string, unknown> {
  let change: Record<string, unknown> = {};
  if (typeof values.change === 'string') {
    try {
      change = JSON.parse(values.change) as Record<string, unknown>;
    } catch {
      throw new UsageError('--change must be a JSON object such as {"add_ons": [...]}.');
    }
  }
  const text = (name: string) => values[name] as string | undefined;
  const number = (flag: string) => {
    const v = text(flag);
    if (v === undefined) return undefined;
    const n = Number(v);
    if (v.trim() === '' || !Number.isFinite(n)) throw new UsageError(`--${flag}: "${v}" is not a number.`);
    return n;
  };
  const orNull = (v: string | undefined) => (v === undefined ? undefined : v.trim() === '' ? null : v);
  const set = (key: string, value: unknown) => {
    if (value !== undefined) change[key] = value;
  };
  set('name', text('name'));
  set('phone', orNull(text('phone')));
  set('email', orNull(text('email')));
  set('website', orNull(text('website')));
  set(
    'service_zips',
    text('zips')
      ?.split(',')
      .map((z) => z.trim())
      .filter(Boolean),
  );
  const hours = values.hours as string[] | undefined;
  if (hours?.length) change.working_hours = { ...(change.working_hours as object), ...hoursFromFlags(hours) };
  const prices = { ...(change.prices as object), ...pairs((values.price as string[] | undefined) ?? [], 'price', ['first_visit']) } as Record<string, unknown>;
  const discounts = pairs((values.discount as string[] | undefined) ?? [], 'discount');
  if (Object.keys(discounts).length) prices.frequency_discounts_pct = { ...(prices.frequency_discounts_pct as object), ...discounts };
  if (Object.keys(prices).length) change.prices = prices;
  set('travel_buffer_minutes', number('travel-buffer'));
  set('slot_step_minutes', number('slot-step'));
  set('min_notice_hours', number('min-notice-hours'));
  return change;
}

/** The crew flags as update_crew's input: the operation's own schema judges them. */
const crewInputSchema = fields(crewChangeFields);

export function crewFromFlags(values: Flags): CrewUpdate {
  const change: Record<string, unknown> = {};
  if (typeof values.name === 'string') change.name = values.name;
  const hours = values.hours as string[] | undefined;
  if (values['business-hours'] && hours?.length) throw new UsageError('Give either --hours or --business-hours, not both.');
  if (hours?.length) change.working_hours = hoursFromFlags(hours);
  if (values['business-hours']) change.working_hours = null;
  if (values.active !== undefined) {
    const active = String(values.active).toLowerCase();
    if (active !== 'yes' && active !== 'no') throw new UsageError('--active must be yes or no.');
    change.active = active === 'yes';
  }
  const judged: CrewUpdate = validateInput({ input: crewInputSchema }, change);
  return judged;
}
