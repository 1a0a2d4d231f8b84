import { answer, idSchema, int, jobSchema, num, openTimesList, quoteSchema, str } from '@frontdesk/domain';
import {
  jobFieldSchemas,
  normalizeJob,
  openTimesFieldSchemas,
  presentQuote,
  requireFirmQuote,
  toUsd,
  type JobInput,
  type OpenTimesFields,
} from '@frontdesk/domain';
import type { Pro } from '@frontdesk/db';
import { openTimesForJob } from '@frontdesk/use-cases';
import { defineOperation, READS } from '@frontdesk/http';
import type { AppContext } from '../context';

const jobRequired = ['bedrooms', 'bathrooms'];

export const quoteJob = (_ctx: AppContext) =>
  defineOperation<Pro, JobInput>({
    name: 'quote_job',
    title: 'Price a cleaning',
    description: "Prices a cleaning from the business's own list: firm total, line items, hours on site. sqft only if the customer stated it.",
    method: 'GET',
    input: { type: 'object', properties: { ...jobFieldSchemas }, required: jobRequired, additionalProperties: false },
    output: quoteSchema,
    ...READS,
    handler(input, { principal: pro }) {
      return Promise.resolve(presentQuote(requireFirmQuote(normalizeJob(input), pro.price_list)));
    },
  });

export interface OpenTimesInput extends JobInput, OpenTimesFields {
  crew_id?: string;
}

export const openTimesOperation = (ctx: AppContext) =>
  defineOperation<Pro, OpenTimesInput>({
    name: 'open_times',
    title: 'Open start times',
    description: "Open starts for the job on the business's own schedule, by day; pass a start unchanged to book_job.",
    method: 'GET',
    input: {
      type: 'object',
      properties: {
        ...jobFieldSchemas,
        ...openTimesFieldSchemas,
        crew_id: idSchema("Only this crew's."),
      },
      required: jobRequired,
      additionalProperties: false,
    },
    output: answer(
      {
        timezone: str,
        from: str,
        days: int,
        job: answer({ ...jobSchema.properties, duration_minutes: int, estimated_hours: num, total: num }),
        ...openTimesList,
      },
      ['message'],
    ),
    ...READS,
    async handler(input, { principal: pro, now }) {
      const job = normalizeJob(input);
      const { quote, ...found } = await openTimesForJob(ctx.db, pro, { job, fields: input, crewId: input.crew_id }, now);
      const { timezone, from, days, ...list } = found;
      return {
        timezone,
        from,
        days,
        job: { ...job, duration_minutes: quote.duration_minutes, estimated_hours: quote.estimated_hours, total: toUsd(quote.total_cents) },
        ...list,
      };
    },
  });
