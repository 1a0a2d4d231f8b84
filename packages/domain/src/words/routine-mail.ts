import { InvalidInputError } from '../errors';
import type { MailText } from './mail';

/**
 * The words of the routine messages: "on my way" to a customer, in the business's voice and
 * with no link of any kind (so a platform lead's customer could never be pointed elsewhere
 * by it), and the morning agenda to the owner and to each crew with an email.
 */

// Refusals of "on my way": each says why and what to do instead.
export const onMyWayCancelled = (id: string, label: string) =>
  new InvalidInputError(`Booking ${id} (${label}) was cancelled; no "on my way" email is sent for a cancelled job.`);
export const onMyWayNoShow = (id: string, label: string) =>
  new InvalidInputError(`Booking ${id} (${label}) was reported as a no-show; no "on my way" email is sent for it.`);
export const onMyWayEnded = (id: string, label: string) =>
  new InvalidInputError(`Booking ${id} (${label}) has already ended; "on my way" is for a job still ahead.`);
export const onMyWayNotToday = (id: string, label: string) =>
  new InvalidInputError(`Booking ${id} is on ${label}; "on my way" can be sent only on the day of the job.`);
export const onMyWayNoEmail = (id: string, label: string) =>
  new InvalidInputError(`Booking ${id} (${label}) has no customer email, so there is nowhere to send "on my way"; call or text the customer instead.`);
export const onMyWayPlatformLead = (id: string) =>
  new InvalidInputError(`Booking ${id} came from a lead platform: its customer is reached only inside that platform, so no "on my way" email is sent.`);

/** How an arrival estimate reads: "about 20 minutes", "about 1 hour 30 minutes". */
export function etaWords(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  const parts = [h && `${h} hour${h === 1 ? '' : 's'}`, m && `${m} minute${m === 1 ? '' : 's'}`].filter(Boolean);
  return `about ${parts.join(' ')}`;
}

/** The customer's "on my way" mail: who is coming, where, and when they should arrive if the owner said. */
export function onMyWayMail(m: { proName: string; proPhone: string | null; customerName: string; address: string; etaMinutes: number | null }): MailText {
  const eta = m.etaMinutes === null ? '' : ` We expect to arrive in ${etaWords(m.etaMinutes)}.`;
  const reach = m.proPhone ? `If anything has changed, call or text us at ${m.proPhone}.` : 'If anything has changed, reply to this email.';
  return {
    subject: `${m.proName} is on the way`,
    text: `Hello ${m.customerName},\n\nOur crew from ${m.proName} is on the way to ${m.address}.${eta}\n\n${reach}\n\n${m.proName}\n`,
  };
}

/** What notify_on_my_way and the Today page say: sent now, or sent before and nothing more. */
export const onMyWaySentMessage = (customerName: string, sentLabel: string, etaMinutes: number | null) =>
  `Emailed ${customerName} that the crew is on the way${etaMinutes === null ? '' : ` (arriving in ${etaWords(etaMinutes)})`}; sent ${sentLabel}.`;
export const onMyWayAlreadySentMessage = (customerName: string, sentLabel: string) =>
  `${customerName} was already emailed "on my way" ${sentLabel}; a job gets it once, so nothing more was sent.`;

/** One job as the agenda lists it. */
export interface AgendaJob {
  /** "9:00 AM EST": the zone's abbreviation tells the two 1:30s of a fall-back day apart. */
  time: string;
  customerName: string;
  address: string;
  zip: string;
  accessDetails: string | null;
  customerPhone: string | null;
  crewName: string;
}

const jobLines = (j: AgendaJob) =>
  [
    `- ${j.time}: ${j.customerName}`,
    `  ${j.address}, ${j.zip}`,
    j.accessDetails && `  Access: ${j.accessDetails.replace(/\s+/g, ' ').trim()}`,
    j.customerPhone && `  Phone: ${j.customerPhone}`,
  ]
    .filter(Boolean)
    .join('\n');

const jobsCount = (n: number) => `${n} job${n === 1 ? '' : 's'}`;

/** The crews' jobs in the order of their first job, each crew under its name. */
function byCrew(jobs: AgendaJob[]): string {
  const crews = new Map<string, AgendaJob[]>();
  for (const j of jobs) crews.set(j.crewName, [...(crews.get(j.crewName) ?? []), j]);
  return [...crews].map(([crew, own]) => `${crew} (${jobsCount(own.length)})\n${own.map(jobLines).join('\n')}`).join('\n\n');
}

/** The owner's morning agenda: the day's jobs per crew, in the business's zone. */
export function ownerAgendaMail(a: { proName: string; dayLabel: string; jobs: AgendaJob[] }): MailText {
  return {
    subject: `${a.proName}: ${jobsCount(a.jobs.length)} today, ${a.dayLabel}`,
    text: `Good morning. Today, ${a.dayLabel}, ${a.proName} has ${jobsCount(a.jobs.length)}:\n\n${byCrew(a.jobs)}\n\nYou get this email each morning while "Email me the day's jobs each morning" has a time in your settings; empty it there to stop it.\n`,
  };
}

/** A crew's morning agenda: only its own jobs. */
export function crewAgendaMail(a: { proName: string; crewName: string; dayLabel: string; jobs: AgendaJob[] }): MailText {
  return {
    subject: `${a.crewName}: ${jobsCount(a.jobs.length)} today for ${a.proName}, ${a.dayLabel}`,
    text: `Good morning. Today, ${a.dayLabel}, ${a.crewName} has ${jobsCount(a.jobs.length)} for ${a.proName}:\n\n${a.jobs.map(jobLines).join('\n')}\n`,
  };
}
