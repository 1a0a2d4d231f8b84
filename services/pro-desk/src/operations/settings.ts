import { answer, bool, idSchema, listOf, settingsChangeSchema, str, timeOffSchemas, fields } from '@frontdesk/domain';
import { addTimeOff, presentTimeOff, removeTimeOff, updateBusinessSettings, type AffectedJob } from '@frontdesk/use-cases';
import { WRITES, OVERWRITES, REMOVES } from '@frontdesk/http';
import type { AppContext } from '../context';
import { businessSchema, presentBusiness, timeOffSchema } from './business';
import { defineOperation } from './define';

/** Time off names its crew only when it is one crew's. */
const CREW_FIELDS = ['crew_id', 'crew_name'] as const;

const affectedJobsSchema = listOf(answer({ booking_id: str, start: str, end: str, label: str, customer_name: str, address: str, zip: str, problem: str }));

const listed = (jobs: AffectedJob[]) =>
  jobs.length === 0 ? '' : ` ${jobs.length} booked ${jobs.length === 1 ? 'job is' : 'jobs are'} affected (nothing was cancelled): see affected_jobs.`;

export const updateBusiness = (ctx: AppContext) =>
  defineOperation({
    name: 'update_business',
    tag: 'settings',
    title: 'Change settings',
    description:
      "Changes settings in my_business's shapes; what is left out stays. Booked jobs stay; the answer lists those now outside the hours or ZIPs. Confirm first.",
    method: 'POST',
    input: settingsChangeSchema,
    // host_turnovers is judged and documented (my_business shows it, OpenAPI lists it) but kept
    // off the tool: the pro host's tools/list is at its budget, and an owner sets it on the dashboard.
    toolFields: Object.keys(settingsChangeSchema.properties).filter((f) => f !== 'host_turnovers'),
    output: answer({ ...businessSchema.properties, affected_jobs: affectedJobsSchema, message: str }),
    ...OVERWRITES,
    idempotent: true,
    async handler(input, { principal, now }) {
      const { pro, affected, timeOff, crews } = await updateBusinessSettings(ctx.db, principal.id, input, now);
      return {
        ...presentBusiness(pro, ctx.config.bookingUrl, timeOff, crews),
        affected_jobs: affected,
        message: `Saved: ${Object.keys(input).join(', ')}.${listed(affected)}`,
      };
    },
  });

export const addTimeOffOperation = (ctx: AppContext) =>
  defineOperation({
    name: 'add_time_off',
    tag: 'settings',
    title: 'Take time off',
    description: 'Blocks time off (no open times); jobs booked in it stay and are listed. Confirm first.',
    method: 'POST',
    input: fields({ ...timeOffSchemas, crew_id: idSchema("Only this crew's.") }, ['start', 'end']),
    output: answer({ ...timeOffSchema.properties, affected_jobs: affectedJobsSchema, message: str }, CREW_FIELDS),
    ...WRITES,
    async handler(input, { principal, now }) {
      const { pro, timeOff, affected } = await addTimeOff(ctx.db, principal.id, input, now);
      const shown = presentTimeOff(timeOff, pro.timezone);
      return { ...shown, affected_jobs: affected, message: `Time off ${shown.label}: no open times are offered inside it.${listed(affected)}` };
    },
  });

export const removeTimeOffOperation = (ctx: AppContext) =>
  defineOperation({
    name: 'remove_time_off',
    tag: 'settings',
    title: 'Remove time off',
    description: 'Removes a time off. Confirm first.',
    method: 'POST',
    input: fields({ time_off_id: idSchema() }, ['time_off_id']),
    output: answer({ removed: bool, ...timeOffSchema.properties, message: str }, CREW_FIELDS),
    ...REMOVES,
    async handler(input, { principal }) {
      const { pro, timeOff } = await removeTimeOff(ctx.db, principal.id, input.time_off_id);
      const shown = presentTimeOff(timeOff, pro.timezone);
      return { removed: true, ...shown, message: `Removed the time off ${shown.label}; its open times are offered again.` };
    },
  });
