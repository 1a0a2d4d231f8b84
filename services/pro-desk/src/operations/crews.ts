import {
  answer,
  bool,
  int,
  listOf,
  mapOf,
  proBookingSchema,
  settingsSchemas,
  str,
  presentWeeklyHours,
  CREW_NAME_MAX,
  MAX_CREWS,
  idSchema,
  singleLine,
} from '@frontdesk/domain';
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

const crewId = idSchema;
const crewName = singleLine({ minLength: 1, maxLength: CREW_NAME_MAX, description: 'Unique in the business.' });
const crewHours = {
  ...settingsSchemas.working_hours,
  description: "As update_business's working_hours.",
};

export const addCrewOperation = (ctx: AppContext) =>
  defineOperation<Pro, { name: string; working_hours?: HoursChange }>({
    name: 'add_crew',
    title: 'Add a crew',
    description: `Adds a crew, so jobs can overlap; at most ${MAX_CREWS}. Confirm first.`,
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
    description: "Renames a crew, sets its hours (null: the business's) or active (false: no new jobs). Confirm first.",
    method: 'POST',
    input: {
      type: 'object',
      properties: {
        crew_id: crewId(),
        name: crewName,
        working_hours: { ...crewHours, nullable: true },
        active: { type: 'boolean' },
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
    description: 'Removes a crew; its upcoming jobs go to reassign_to, free for all of them. Confirm first.',
    method: 'POST',
    input: {
      type: 'object',
      properties: { crew_id: crewId(), reassign_to: crewId() },
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
    title: 'Reassign a job',
    description: 'Gives an upcoming job to another crew, same time. Confirm first.',
    method: 'POST',
    input: {
      type: 'object',
      properties: { booking_id: crewId(), crew_id: crewId() },
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
