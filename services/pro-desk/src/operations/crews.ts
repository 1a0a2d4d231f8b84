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
  crewAddedMessage,
  crewRemovedMessage,
  crewUpdatedMessage,
  jobAssignedMessage,
  laterVisitsAssigned,
  andFollowingSchema,
  fields,
  boolean,
  described,
  nullable,
} from '@frontdesk/domain';
import type { Crew, Pro } from '@frontdesk/db';
import { addCrew, assignJob, presentBooking, removeCrew, updateCrew } from '@frontdesk/use-cases';
import { OVERWRITES, REMOVES, WRITES } from '@frontdesk/http';
import type { AppContext } from '../context';
import { defineOperation } from './define';

/** A crew as my_business and the crew operations show it. */
export const crewSchema = answer({
  crew_id: str,
  name: str,
  active: bool,
  /** Its own hours, or the business's when own_hours is false. */
  working_hours: mapOf(listOf(str)),
  own_hours: bool,
  upcoming_jobs: int,
  email: nullable(str),
});

export function presentCrew(crew: Crew, pro: Pro, upcomingJobs: number) {
  return {
    crew_id: crew.id,
    name: crew.name,
    active: crew.active,
    working_hours: presentWeeklyHours(crew.weekly_hours ?? pro.weekly_hours),
    own_hours: crew.weekly_hours !== null,
    upcoming_jobs: upcomingJobs,
    email: crew.email,
  };
}

const crewId = idSchema;
const crewName = singleLine({ minLength: 1, maxLength: CREW_NAME_MAX, description: 'Unique in the business.' });
const crewHours = described(settingsSchemas.working_hours, "As update_business's working_hours.");
/** What update_crew changes of a crew (`pnpm cli crew set` reads its flags into the same). */
export const crewChangeFields = {
  name: crewName,
  working_hours: nullable(crewHours),
  active: boolean(),
  email: nullable(singleLine({ maxLength: 200, description: 'Gets its own jobs each morning; null: none.' })),
};

export const addCrewOperation = (ctx: AppContext) =>
  defineOperation({
    name: 'add_crew',
    tag: 'crews',
    title: 'Add a crew',
    description: `Adds a crew, so jobs can overlap; at most ${MAX_CREWS}. Confirm first.`,
    method: 'POST',
    input: fields({ name: crewName, working_hours: crewHours }, ['name']),
    output: answer({ ...crewSchema.properties, message: str }),
    ...WRITES,
    async handler(input, { principal, now }) {
      const { pro, crew } = await addCrew(ctx.db, principal.id, input, now);
      return { ...presentCrew(crew, pro, 0), message: crewAddedMessage(crew.name) };
    },
  });

export const updateCrewOperation = (ctx: AppContext) =>
  defineOperation({
    name: 'update_crew',
    tag: 'crews',
    title: 'Change a crew',
    description: "Renames a crew, sets its hours (null: the business's) or active (false: no new jobs). Confirm first.",
    method: 'POST',
    input: fields({ crew_id: crewId(), ...crewChangeFields }, ['crew_id']),
    output: answer({ ...crewSchema.properties, message: str }),
    ...OVERWRITES,
    idempotent: true,
    async handler(input, { principal, now }) {
      const { pro, crew, upcoming } = await updateCrew(ctx.db, principal.id, input, now);
      return { ...presentCrew(crew, pro, upcoming), message: crewUpdatedMessage(crew.name, crew.active, upcoming) };
    },
  });

export const removeCrewOperation = (ctx: AppContext) =>
  defineOperation({
    name: 'remove_crew',
    tag: 'crews',
    title: 'Remove a crew',
    description: 'Removes a crew; its upcoming jobs go to reassign_to. Confirm first.',
    method: 'POST',
    input: fields({ crew_id: crewId(), reassign_to: crewId() }, ['crew_id']),
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
  defineOperation({
    name: 'assign_job',
    tag: 'crews',
    title: 'Reassign a job',
    description: 'Gives an upcoming job (and_following: its later visits too) to another crew, same time. Confirm first.',
    method: 'POST',
    input: fields({ booking_id: crewId(), crew_id: crewId(), and_following: andFollowingSchema }, ['booking_id', 'crew_id']),
    output: answer({ ...proBookingSchema.properties, from_crew_id: str, from_crew_name: str, visits_assigned: int, message: str }),
    ...OVERWRITES,
    idempotent: true,
    async handler(input, { principal, now }) {
      const asked = { bookingId: input.booking_id, crewId: input.crew_id, andFollowing: input.and_following };
      const { pro, booking, from, moved } = await assignJob(ctx.db, principal.id, asked, now);
      const shown = presentBooking(booking, pro.timezone);
      return {
        ...shown,
        from_crew_id: from.crew_id,
        from_crew_name: from.crew_name,
        visits_assigned: moved,
        message: `${jobAssignedMessage(booking.customer_name, shown.label, from.crew_name, booking.crew_name)}${laterVisitsAssigned(moved - 1)}`,
      };
    },
  });
