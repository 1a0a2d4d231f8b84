import { planInWords } from '@frontdesk/domain';
import type { Booking } from '@frontdesk/db';
import { html, type Html } from '@frontdesk/http';

/** Where a recurring plan's page and forms live, and the line a job card gives a visit of one (no other view imported: job cards and plan pages both use it). */

export type PlanForm = 'crew' | 'pause' | 'end';
export const planLink = (id: string, form?: PlanForm) => `/dashboard/plans/${encodeURIComponent(id)}${form ? `/${form}` : ''}`;

/** A visit's line on a job card: the plan's rhythm from the booking alone, and the way to the plan. */
export const planOfCard = (b: Booking): Html =>
  b.series_id && b.frequency !== 'once'
    ? html`<p class="plan-of-job">${planInWords({ frequency: b.frequency })}: <a href="${planLink(b.series_id)}">see the plan</a></p>`
    : html``;
