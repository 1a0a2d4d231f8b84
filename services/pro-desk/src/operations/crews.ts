import { answer, bool, int, listOf, mapOf, proBookingSchema, settingsSchemas, str, presentWeeklyHours, CREW_NAME_MAX, MAX_CREWS } from '@frontdesk/domain';
import type { Crew, Pro } from '@frontdesk/db';
import { addCrew, assignJob, presentBooking, removeCrew, updateCrew, type CrewUpdate, type HoursChange } from '@frontdesk/use-cases';
import { defineOperation, OVERWRITES, REMOVES, WRITES } from '@frontdesk/http';
import { crewAddedMessage, crewRemovedMessage, crewUpdatedMessage, jobAssignedMessage } from '@frontdesk/domain';
import type { AppContext } from '../context';

/** A crew as my_business and the crew operations show it. */
export const crewSchema = answer({
  crew_id: str,
  name: str,
  active: bool,
  /** Its own hours, or the business's when own_hours is false. */
  working_hours: mapOf(listOf(str)),
  own_hours: bool,
  upcoming_jobs: int,
});

export function presentCrew(crew: Crew, pro: Pro, upcomingJobs: number) {
  return {
    crew_id: crew.id,
    name: crew.name,
    active: crew.active,
    working_hours: presentWeeklyHours(crew.weekly_hours ?? pro.weekly_hours),
    own_hours: crew.weekly_hours !== null,
    upcoming_jobs: upcomingJobs,
  };
}

const crewId = (what: string) => ({ type: 'string', minLength: 1, maxLength: 64, description: what });
const crewName = {
  type: 'string',
  minLength: 1,
  maxLength: CREW_NAME_MAX,
  description: `The crew's name, unique in the business (1 to ${CREW_NAME_MAX} characters).`,
};
const crewHours = {
  ...settingsSchemas.working_hours,
  description: "The crew's own hours per weekday (monday … sunday), as my_business shows them; weekdays left out keep the hours they have.",
};

export const addCrewOperation = (ctx: AppContext) =>
  defineOperation<Pro, { name: string; working_hours?: HoursChange }>({
    name: 'add_crew',
    title: 'Add a crew',
    description: `Adds a crew (a team that does jobs on its own) to the business, so two jobs can be booked at one time. It works the business's hours unless working_hours gives its own. A business has at most ${MAX_CREWS} crews. Confirm with the pro first.`,
    method: 'POST',
    input: { type: 'object', properties: { name: crewName, working_hours: crewHours }, required: ['name'], additionalProperties: false },
    output: answer({ ...crewSchema.properties, message: str }),
    ...WRITES,
    async handler(input, { principal, now }) {
      const { pro, crew } = await addCrew(ctx.db, principal.id, input, now);
      return { ...presentCrew(crew, pro, 0), message: crewAddedMessage(crew.name) };
    },
  });

export const updateCrewOperation = (ctx: AppContext) =>
  defineOperation<Pro, { crew_id: string } & Omit<CrewUpdate, 'working_hours'> & { working_hours?: HoursChange | null }>({
    name: 'update_crew',
    title: 'Change a crew',
    description:
      "Renames a crew, sets its own working hours (null: back to the business's), or makes it active or inactive (an inactive crew takes no new jobs but keeps those it has). The business always keeps one active crew. Confirm with the pro first.",
    method: 'POST',
    input: {
      type: 'object',
      properties: {
        crew_id: crewId('The crew to change, from my_business.'),
        name: crewName,
        working_hours: { ...crewHours, nullable: true },
        active: { type: 'boolean', description: 'false: the crew takes no new jobs; true: it takes them again.' },
      },
      required: ['crew_id'],
      additionalProperties: false,
    },
    output: answer({ ...crewSchema.properties, message: str }),
    ...OVERWRITES,
    idempotent: true,
    async handler(input, { principal, now }) {
      const { pro, crew, upcoming } = await updateCrew(ctx.db, principal.id, input, now);
      return { ...presentCrew(crew, pro, upcoming), message: crewUpdatedMessage(crew.name, crew.active, upcoming) };
    },
  });

export const removeCrewOperation = (ctx: AppContext) =>
  defineOperation<Pro, { crew_id: string; reassign_to?: string }>({
    name: 'remove_crew',
    title: 'Remove a crew',
    description:
      'Removes a crew. Refused while it has upcoming jobs, unless reassign_to names another crew free at every one of them: then they all move to it in one step, or nothing changes. Its past jobs keep its name. Confirm with the pro first.',
    method: 'POST',
    input: {
      type: 'object',
      properties: { crew_id: crewId('The crew to remove, from my_business.'), reassign_to: crewId('Another crew to take its upcoming jobs.') },
      required: ['crew_id'],
      additionalProperties: false,
    },
    output: answer({ removed: bool, crew_id: str, name: str, reassigned: listOf(proBookingSchema), message: str }),
    ...REMOVES,
    async handler(input, { principal, now }) {
      const { pro, crew, moved } = await removeCrew(ctx.db, principal.id, input, now);
      return {
        removed: true,
        crew_id: crew.id,
        name: crew.name,
        reassigned: moved.map((b) => presentBooking(b, pro.timezone)),
        message: crewRemovedMessage(crew.name, moved.length, moved[0]?.crew_name ?? null),
      };
    },
  });

export const assignJobOperation = (ctx: AppContext) =>
  defineOperation<Pro, { booking_id: string; crew_id: string }>({
    name: 'assign_job',
    title: 'Give a job to another crew',
    description:
      'Moves an upcoming job to another crew at the same time. Refused, naming the clash, if that crew is busy, off or outside its hours then; nothing changes on a refusal. The customer is not messaged. Confirm with the pro first.',
    method: 'POST',
    input: {
      type: 'object',
      properties: { booking_id: crewId('The job, from schedule or book_job.'), crew_id: crewId('The crew to take it, from my_business.') },
      required: ['booking_id', 'crew_id'],
      additionalProperties: false,
    },
    output: answer({ ...proBookingSchema.properties, from_crew_id: str, from_crew_name: str, message: str }),
    ...OVERWRITES,
    idempotent: true,
    async handler(input, { principal, now }) {
      const { pro, booking, from } = await assignJob(ctx.db, principal.id, { bookingId: input.booking_id, crewId: input.crew_id }, now);
      const shown = presentBooking(booking, pro.timezone);
      return {
        ...shown,
        from_crew_id: from.crew_id,
        from_crew_name: from.crew_name,
        message: jobAssignedMessage(booking.customer_name, shown.label, from.crew_name, booking.crew_name),
      };
    },
  });
