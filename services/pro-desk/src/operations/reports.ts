import { MESSAGE, answer, bool, feedEventSchema, int, listOf, pipelineSchema } from '@frontdesk/domain';
import { BOOKING_FEE_TEXT, MONTH_PATTERN, localDate } from '@frontdesk/domain';
import type { Pro } from '@frontdesk/db';
import { pipelineReport, readUpdates } from '@frontdesk/use-cases';
import { defineOperation, READS } from '@frontdesk/http';
import type { AppContext } from '../context';

const MAX_CURSOR = 9007199254740991;

export const updates = (ctx: AppContext) =>
  defineOperation<Pro, { since?: number }>({
    name: 'updates',
    title: 'What changed',
    description:
      "New bookings (AI assistants' too), cancellations, follow-ups due and today's jobs since the cursor (default 7 days). A watcher calls it every next_check_in_minutes and messages the pro only when events is not empty.",
    method: 'GET',
    input: {
      type: 'object',
      properties: {
        since: { type: 'integer', minimum: 0, maximum: MAX_CURSOR, description: "The last answer's cursor." },
      },
      additionalProperties: false,
    },
    output: answer(
      {
        events: listOf(feedEventSchema),
        cursor: int,
        next_check_in_minutes: int,
        more: bool,
        reset: bool,
        ...MESSAGE,
      },
      ['reset', 'message'],
    ),
    ...READS,
    async handler(input, { principal: pro, now }) {
      return readUpdates(ctx.db, pro, input, { now, changes: ctx.changes });
    },
  });

export const pipeline = (ctx: AppContext) =>
  defineOperation<Pro, { month?: string }>({
    name: 'pipeline',
    title: 'Pipeline report',
    description: `A month's leads and spend by platform, cost per booked job, lead credits, booking-service fees (${BOOKING_FEE_TEXT} each), jobs per crew.`,
    method: 'GET',
    input: {
      type: 'object',
      properties: { month: { type: 'string', pattern: MONTH_PATTERN, description: 'YYYY-MM; default this month.' } },
      additionalProperties: false,
    },
    output: pipelineSchema,
    ...READS,
    async handler(input, { principal: pro, now }) {
      return pipelineReport(ctx.db, pro, input.month ?? localDate(now, pro.timezone).slice(0, 7));
    },
  });
