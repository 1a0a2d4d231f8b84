import { WEEKDAYS } from '@frontdesk/domain';
import { formField } from '@frontdesk/http';

/** The dashboard's settings forms, read into the one input update_business takes: the API's schema judges them. */

/** Form text as update_business's input: digits become numbers, anything else is left for the schema to name. */
export function numeric(text: string): number | string | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  return /^-?\d+(\.\d+)?$/.test(t) ? Number(t) : t;
}
const optionalText = (text: string) => (text.trim() === '' ? null : text.trim());
const list = (text: string) => text.split(/[\s,;]+/).filter(Boolean);

/** The time-off form as add_time_off's input. */
export function readTimeOff(body: unknown): Record<string, string> {
  const note = formField(body, 'note').trim();
  return { start: formField(body, 'start'), end: formField(body, 'end'), ...(note ? { note } : {}) };
}

/** How each field of the business's details becomes update_business's input. */
const DETAILS: Record<string, (text: string) => unknown> = {
  name: (text) => text,
  phone: optionalText,
  email: optionalText,
  website: optionalText,
  service_zips: list,
  travel_buffer_minutes: numeric,
  slot_step_minutes: numeric,
  min_notice_hours: numeric,
  host_turnovers: (text) => text,
};

/** The business's details a form sent (the booking page's, the service area's): a field the form does not hold is left as it is. */
function detailsSent(body: unknown): Record<string, unknown> {
  const sent = typeof body === 'object' && body !== null ? body : {};
  const fields = Object.entries(DETAILS).filter(([name]) => name in sent);
  return JSON.parse(JSON.stringify(Object.fromEntries(fields.map(([name, read]) => [name, read(formField(body, name))])))) as Record<string, unknown>;
}

/** Each settings form, read into the one input update_business takes. */
export const SETTINGS_FORMS: Record<string, { saved: string; read(body: unknown): Record<string, unknown> }> = {
  hours: {
    saved: 'Saved your working hours.',
    read: (body) => ({ working_hours: Object.fromEntries(WEEKDAYS.map((day) => [day, list(formField(body, day))])) }),
  },
  prices: {
    saved: 'Saved your prices. New quotes use them now; booked jobs keep their price.',
    read: (body) => {
      const prices: Record<string, unknown> = {};
      for (const name of ['base', 'per_bedroom', 'per_bathroom', 'minimum', 'pets_fee', 'crew_size']) prices[name] = numeric(formField(body, name));
      prices.frequency_discounts_pct = Object.fromEntries(['weekly', 'biweekly', 'monthly'].map((f) => [f, numeric(formField(body, f)) ?? 0]));
      prices.first_visit = formField(body, 'first_visit') || undefined;
      return { prices: JSON.parse(JSON.stringify(prices)) as Record<string, unknown> };
    },
  },
  'add-ons': {
    saved: 'Saved your add-ons.',
    read: (body) => {
      const rows = Math.min(Number(formField(body, 'rows')) || 0, 40);
      const addOns = [];
      for (let i = 0; i < rows; i++) {
        const name = formField(body, `addon_name_${i}`).trim();
        const label = formField(body, `addon_label_${i}`);
        if ((name === '' && label.trim() === '') || formField(body, `addon_remove_${i}`) === '1') continue;
        addOns.push({ name, label, price: numeric(formField(body, `addon_price_${i}`)), minutes: numeric(formField(body, `addon_minutes_${i}`)) });
      }
      return { add_ons: JSON.parse(JSON.stringify(addOns)) as unknown[] };
    },
  },
  profile: { saved: 'Saved your business details.', read: (body) => detailsSent(body) },
  area: { saved: 'Saved your service area.', read: (body) => detailsSent(body) },
  mail: {
    saved: 'Saved which mails you get.',
    read: (body) => ({
      email_me_customer_changes: formField(body, 'email_me_customer_changes') === 'on',
      owner_agenda: formField(body, 'owner_agenda').trim() || null,
    }),
  },
  messages: {
    saved: 'Saved the messages your customers get.',
    read: (body) => {
      const reminders = [0, 1].map((i) => numeric(formField(body, `customer_reminders[${i}]`))).filter((h) => h !== undefined);
      const review =
        formField(body, 'review_on') === 'on' ? { link: formField(body, 'link').trim(), delay_hours: numeric(formField(body, 'delay_hours')) } : null;
      return JSON.parse(JSON.stringify({ customer_reminders: reminders, review_request: review })) as Record<string, unknown>;
    },
  },
};
