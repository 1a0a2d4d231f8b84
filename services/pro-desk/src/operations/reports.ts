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
      "Reports what changed since the cursor: new bookings (including customers' and AI assistants'), cancellations, follow-ups due and today's jobs. Pass the returned cursor as since next time; without since it returns the last 7 days. A scheduled watcher calls this every next_check_in_minutes and messages the pro only when events is not empty; each event's message is one sentence for the pro.",
    method: 'GET',
    input: {
      type: 'object',
      properties: {
        since: { type: 'integer', minimum: 0, maximum: MAX_CURSOR, description: 'The cursor from the previous call.' },
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
    title: 'Monthly pipeline report',
    description: `Monthly report: leads and spend by platform, booked and lost, true cost per booked job (spend / booked), possible lead credits, customers the booking service brought directly (with the ${BOOKING_FEE_TEXT} fees due after cancellations and no-show waivers), and jobs booked, in total and per crew (jobs_booked.by_crew). month is YYYY-MM; default this month.`,
    method: 'GET',
    input: {
      type: 'object',
      properties: { month: { type: 'string', pattern: MONTH_PATTERN, description: 'YYYY-MM; default this month in the business time zone.' } },
      additionalProperties: false,
    },
    output: pipelineSchema,
    ...READS,
    async handler(input, { principal: pro, now }) {
      return pipelineReport(ctx.db, pro, input.month ?? localDate(now, pro.timezone).slice(0, 7));
    },
  });
