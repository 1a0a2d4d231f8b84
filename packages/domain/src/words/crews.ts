import { InvalidInputError, NotFoundError } from '../errors';

/** What a business reads about its crews: a crew not found or refused, a job that no crew can take. */

export const crewNameLength = (field: string, max: number) => new InvalidInputError(`${field} must be 1 to ${max} characters.`);
export const noCrew = (id: string) => new NotFoundError(`No crew with id ${id} in this business; my_business lists the crews.`);
export const crewNameTaken = (name: string) => new InvalidInputError(`This business already has a crew named "${name}"; pick another name.`);
export const tooManyCrews = (max: number) => new InvalidInputError(`A business can have at most ${max} crews; remove or reuse one first.`);
export const lastActiveCrew = (name: string) =>
  new InvalidInputError(`${name} is the business's only active crew: add or activate another crew first, so someone can take the jobs.`);
export const crewInactive = (name: string) => new InvalidInputError(`${name} is not active: activate it with update_crew first.`);
export const crewHoldsJobs = (name: string, count: number, first: string) =>
  new InvalidInputError(
    `${name} still has ${count} upcoming job${count === 1 ? '' : 's'} (the first ${first}). Give reassign_to another crew to take them, or move them with assign_job first; nothing was changed.`,
  );
export const reassignToItself = () => new InvalidInputError('reassign_to must be another crew than the one removed.');
export const reassignClashes = (name: string, lines: string[]) =>
  new InvalidInputError(`${name} cannot take every job: ${lines.join(' ')} Nothing was changed.`);
export const assignClash = (name: string, reason: string) => new InvalidInputError(`${name} cannot take this job: ${reason} Nothing was changed.`);
export const alreadyOnCrew = (name: string) => new InvalidInputError(`The job is already on ${name}.`);
export const jobNotAssignable = (id: string, status: string) =>
  new InvalidInputError(`Booking ${id} is ${status}: only an upcoming booked job can change crew.`);
/** Why the crew a caller named cannot take a start (notOpen adds the nearest open times). */
export const crewCannotTakeStart = (name: string, reason: string) => `${name} cannot take this start: ${reason}`;

/** A start every crew is busy at. */
export const everyCrewBusy = (label: string, travelBufferMinutes: number) =>
  `${label} is taken: every crew is busy then (a job or its ${travelBufferMinutes}-minute travel buffer).`;

/** Why a crew cannot do a job already booked for a time (assign_job, a removed crew's jobs). */
export const jobOutsideCrewHours = (label: string) => `the job ${label} is outside its working hours.`;
export const jobInCrewTimeOff = (label: string) => `the job ${label} falls in its time off or the business's.`;
export const jobClashes = (label: string, travelBufferMinutes: number) =>
  `the job ${label} overlaps another of its jobs or that job's ${travelBufferMinutes}-minute travel buffer.`;

/** The feed's line for a job moved to another crew. */
export const jobAssignedMessage = (customerName: string, label: string, fromCrew: string, toCrew: string) =>
  `${customerName}'s cleaning ${label} moved from ${fromCrew} to ${toCrew}.`;

/** What the crew operations answer. */
export const crewAddedMessage = (name: string) => `Added ${name}: it takes jobs from now on, and open times count it.`;
export const crewUpdatedMessage = (name: string, active: boolean, upcoming: number) =>
  active
    ? `Saved ${name}.`
    : `Saved ${name}: it takes no new jobs.${upcoming > 0 ? ` It still has ${upcoming} upcoming job${upcoming === 1 ? '' : 's'}; give them to another crew with assign_job if it will not do them.` : ''}`;
export const crewRemovedMessage = (name: string, moved: number, to: string | null) =>
  moved === 0 ? `Removed ${name}.` : `Removed ${name}; its ${moved} upcoming job${moved === 1 ? '' : 's'} moved to ${to}.`;
