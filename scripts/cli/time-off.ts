import { upcomingTimeOff } from '@frontdesk/db';
import { addTimeOff, presentTimeOff, removeTimeOff } from '@frontdesk/use-cases';
import { UsageError, mustExist, print, withDb } from './context';
import type { Run } from './options';

/** `pro time-off add`: whole local days or exact times off, and the booked jobs inside them. */
export const timeOffAdd: Run = async ({ values, json }) => {
  if (!values.pro || !values.start || !values.end) throw new UsageError('pro time-off add needs --pro, --start and --end.');
  const input = { start: values.start, end: values.end, ...(values.note === undefined ? {} : { note: values.note }) };
  const { pro, timeOff, affected } = await withDb(async (db) => {
    await mustExist(db, values.pro!);
    return addTimeOff(db, values.pro!, input, new Date());
  });
  const shown = presentTimeOff(timeOff, pro.timezone);
  const inside = affected.map((j) => `\n  ${j.booking_id} ${j.label} ${j.customer_name}`).join('');
  print(
    json,
    { ...shown, affected_jobs: affected },
    `Time off ${shown.time_off_id}: ${shown.label}.${inside ? `\nBooked jobs inside it (none cancelled):${inside}` : ''}`,
  );
};

/** `pro time-off remove`: one time off taken back. */
export const timeOffRemove: Run = async ({ values, json }) => {
  if (!values.pro || !values.id) throw new UsageError('pro time-off remove needs --pro and --id <time_off_id>.');
  const { pro, timeOff } = await withDb((db) => removeTimeOff(db, values.pro!, values.id!));
  const shown = presentTimeOff(timeOff, pro.timezone);
  print(json, { removed: true, ...shown }, `Removed time off ${shown.time_off_id} (${shown.label}).`);
};

/** `pro time-off list`: the business's upcoming time off. */
export const timeOffList: Run = async ({ values, json }) => {
  if (!values.pro) throw new UsageError('pro time-off list needs --pro <pro_id>.');
  const { pro, rows } = await withDb(async (db) => {
    const found = await mustExist(db, values.pro!);
    return { pro: found, rows: await upcomingTimeOff(db, found.id, new Date()) };
  });
  const shown = rows.map((t) => presentTimeOff(t, pro.timezone));
  print(
    json,
    { pro_id: pro.id, time_off: shown },
    shown.length ? shown.map((t) => `${t.time_off_id}  ${t.label}${t.note ? `  (${t.note})` : ''}`).join('\n') : `${pro.name} has no upcoming time off.`,
  );
};
