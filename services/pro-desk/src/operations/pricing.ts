import { answer, int, jobSchema, num, openTimesList, quoteSchema, str } from '@frontdesk/domain';
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
    description:
      "Prices a cleaning from the business's own price list: the firm total, line items and estimated hours on site. Give bedrooms and bathrooms; add sqft only if the customer stated it. Refuses a clean type or add-on the business does not offer and lists what it offers.",
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
    title: 'List open start times',
    description:
      "Lists open start times for a job of this size on the business's own schedule, from working hours, time off, existing bookings with their travel buffer and the minimum notice. Each start is ISO 8601 with the business's local offset plus a human label; pass a start unchanged to book_job.",
    method: 'GET',
    input: {
      type: 'object',
      properties: {
        ...jobFieldSchemas,
        ...openTimesFieldSchemas,
        crew_id: {
          type: 'string',
          minLength: 1,
          maxLength: 64,
          description: "Only this crew's open starts (crew_id from my_business); left out, every start some crew can take.",
        },
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
