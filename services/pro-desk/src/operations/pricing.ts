import {
  answer,
  idSchema,
  int,
  jobSchema,
  num,
  openTimesList,
  quoteSchema,
  str,
  jobFieldSchemas,
  normalizeJob,
  openTimesFieldSchemas,
  presentQuote,
  requireFirmQuote,
  toUsd,
  fields,
  type Job,
} from '@frontdesk/domain';
import { openTimesForJob } from '@frontdesk/use-cases';
import { STALE_READS, keptAnswer } from '@frontdesk/http';
import type { AppContext } from '../context';
import { defineOperation } from './define';

const jobRequired = ['bedrooms', 'bathrooms'] as const;

export const quoteJob = (_ctx: AppContext) =>
  defineOperation({
    name: 'quote_job',
    tag: 'pricing',
    title: 'Price a cleaning',
    description: "Prices a cleaning from the business's own list: firm total, line items, hours on site. sqft only if the customer stated it.",
    method: 'GET',
    input: fields({ ...jobFieldSchemas }, jobRequired),
    output: quoteSchema,
    ...STALE_READS,
    handler(input, { principal: pro }) {
      return Promise.resolve(presentQuote(requireFirmQuote(normalizeJob(input), pro.price_list)));
    },
  });

export const openTimesOperation = (ctx: AppContext) =>
  defineOperation({
    name: 'open_times',
    tag: 'pricing',
    title: 'Open start times',
    description: "Open starts for the job on the business's own schedule, by day; pass a start unchanged to book_job.",
    method: 'GET',
    input: fields({ ...jobFieldSchemas, ...openTimesFieldSchemas, crew_id: idSchema("Only this crew's.") }, jobRequired),
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
    ...STALE_READS,
    async handler(input, { principal: pro, now }) {
      const job = normalizeJob(input);
      const found = await openTimesForJob(ctx.db, pro, { job, fields: input, crewId: input.crew_id }, now);
      // A list kept for this job (the same object while it holds) is answered as it was the first time.
      let shown = answered.get(found);
      if (!shown) answered.set(found, (shown = keptAnswer(openTimesAnswer(job, found))));
      return shown;
    },
  });

/** open_times's answers by what openTimesForJob found (kept per job, so the job in it is this one's). */
const answered = new WeakMap<object, ReturnType<typeof openTimesAnswer>>();

function openTimesAnswer(job: Job, found: Awaited<ReturnType<typeof openTimesForJob>>) {
  const { quote, timezone, from, days, ...list } = found;
  return {
    timezone,
    from,
    days,
    job: { ...structuredClone(job), duration_minutes: quote.duration_minutes, estimated_hours: quote.estimated_hours, total: toUsd(quote.total_cents) },
    ...list,
  };
}
