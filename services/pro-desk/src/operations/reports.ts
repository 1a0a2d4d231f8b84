import {
  MESSAGE,
  answer,
  bool,
  feedEventSchema,
  int,
  listOf,
  pipelineSchema,
  BOOKING_FEE_TEXT,
  MONTH_PATTERN,
  localDate,
  fields,
  text,
  integer,
} from '@frontdesk/domain';
import { pipelineReport, readUpdates } from '@frontdesk/use-cases';
import { READS } from '@frontdesk/http';
import type { AppContext } from '../context';
import { defineOperation } from './define';

const MAX_CURSOR = 9007199254740991;

export const updates = (ctx: AppContext) =>
  defineOperation({
    name: 'updates',
    tag: 'reports',
    title: 'What changed',
    description:
      "Bookings (AI assistants' too), cancellations, follow-ups due, today's jobs since the cursor (default 7 days). A watcher calls it every next_check_in_minutes and messages the pro only when events is not empty.",
    method: 'GET',
    instruction:
      'A scheduled watcher calls updates every next_check_in_minutes, passing the cursor back as since, and messages the pro only when events is not empty.',
    input: fields({ since: integer({ minimum: 0, maximum: MAX_CURSOR, description: "The last answer's cursor." }) }),
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
  defineOperation({
    name: 'pipeline',
    tag: 'reports',
    title: 'Pipeline report',
    description: `A month's leads and spend by platform, cost per booked job, lead credits, booking-service fees (${BOOKING_FEE_TEXT} each), jobs per crew.`,
    method: 'GET',
    input: fields({ month: text({ pattern: MONTH_PATTERN, description: 'YYYY-MM; default this month.' }) }),
    output: pipelineSchema,
    ...READS,
    async handler(input, { principal: pro, now }) {
      return pipelineReport(ctx.db, pro, input.month ?? localDate(now, pro.timezone).slice(0, 7));
    },
  });
