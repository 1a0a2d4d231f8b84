import {
  HOLD_MINUTES,
  answer,
  fields,
  holdIdSchema,
  holdSchema,
  releasedHoldSchema,
  idSchema,
  integer,
  jobFieldSchemas,
  pencilledInMessage,
  singleLine,
  str,
} from '@frontdesk/domain';
import type { Pro } from '@frontdesk/db';
import { heldUntil, holdForBusiness, presentHold, presentRelease, releaseHold, type HoldClaim } from '@frontdesk/use-cases';
import { REMOVES, WRITES } from '@frontdesk/http';
import type { AppContext } from '../context';
import { defineOperation } from './define';

/** A business's holds are its own, whichever of its keys took them. */
export const proHoldClaim = (pro: Pro, id: string): HoldClaim => ({ id, owner: { credential: `pro:${pro.id}`, email: null, phone: null }, shared: false });

export const holdTime = (ctx: AppContext) =>
  defineOperation({
    name: 'hold_time',
    tag: 'bookings',
    title: 'Pencil in a time',
    description:
      'Pencils in a start from open_times while a lead decides; nobody else can take it. On yes, book_job with the hold_id; else release_hold. Messages no one.',
    method: 'POST',
    input: fields(
      {
        lead_id: idSchema('The lead it is for.'),
        ...jobFieldSchemas,
        start: singleLine({ minLength: 10, maxLength: 40, description: 'A start from open_times, unchanged.' }),
        minutes: integer({ minimum: HOLD_MINUTES.pro.min, maximum: HOLD_MINUTES.pro.max, description: `Default ${HOLD_MINUTES.pro.default}.` }),
        crew_id: idSchema('Default a free crew.'),
      },
      ['bedrooms', 'bathrooms', 'start'],
    ),
    output: answer({ ...holdSchema.properties, message: str }),
    ...WRITES,
    async handler(input, { principal: pro, now }) {
      const { hold, crewName } = await holdForBusiness(ctx.db, pro, input, now);
      const shown = presentHold(hold, { timezone: pro.timezone, crewName });
      return { ...shown, message: pencilledInMessage({ label: shown.label, crewName, until: heldUntil(hold, pro.timezone), leadName: null }) };
    },
  });

export const releaseHoldOperation = (ctx: AppContext) =>
  defineOperation({
    name: 'release_hold',
    tag: 'bookings',
    title: 'Release a pencilled-in time',
    description: 'Frees a time pencilled in with hold_time; releasing again changes nothing.',
    method: 'POST',
    input: fields({ hold_id: holdIdSchema }, ['hold_id']),
    output: releasedHoldSchema,
    ...REMOVES,
    idempotent: true,
    async handler(input, { principal: pro }) {
      return presentRelease(await releaseHold(ctx.db, proHoldClaim(pro, input.hold_id)));
    },
  });
