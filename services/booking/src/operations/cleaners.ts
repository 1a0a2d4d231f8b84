import {
  MESSAGE,
  answer,
  checkSchema,
  int,
  jobSchema,
  listOf,
  nullable,
  num,
  openTimeSchema,
  openTimesList,
  quoteSchema,
  str,
  CHECKS_NOTE,
  jobFieldSchemas,
  noCleanersMessage,
  openTimesFieldSchemas,
  presentOpenTime,
  presentQuote,
  toUsd,
  idSchema,
  zipSchema,
  type Job,
  type Quote,
  fields,
  integer,
} from '@frontdesk/domain';
import { cleanerTimesReader, findCleanersFor, presentCheck, type CleanerOffer, type CleanerSearch } from '@frontdesk/use-cases';
import { STALE_READS, keptAnswer } from '@frontdesk/http';
import type { AppContext } from '../context';
import { defineOperation } from './define';

export const cleanerIdSchema = idSchema('From find_cleaners.');

/** A cleaner's firm price for the job, as both find_cleaners and available_times show it. */
const priceSchema = answer({
  currency: quoteSchema.properties.currency,
  total: num,
  line_items: quoteSchema.properties.line_items,
  estimated_hours: num,
  recurring: quoteSchema.properties.recurring,
  summary: str,
});
function presentPrice(quote: Quote) {
  const q = presentQuote(quote);
  return { currency: q.currency, total: q.total, line_items: q.line_items, estimated_hours: q.estimated_hours, recurring: q.recurring, summary: q.summary };
}

/** A kept search's answer, for the ZIP and job it was asked with, made for a year of `now` (labels name other years). */
const presented = new WeakMap<CleanerSearch, { asked: string; year: number; answer: ReturnType<typeof answerOf> }>();

/**
 * A search as find_cleaners answers it. A kept search (the same object, while its cache says it
 * holds) is answered with the answer made the first time, for the same ZIP and job in the same
 * year of `now`: kept (keptAnswer), so REST writes the bytes it wrote then.
 */
function presentSearch(found: CleanerSearch, asked: { zip: string; job: Job }, now: Date) {
  const key = `${asked.zip}|${JSON.stringify(asked.job)}`;
  const year = now.getUTCFullYear();
  const shown = presented.get(found);
  if (shown?.year === year && shown.asked === key) return shown.answer;
  const made = keptAnswer(answerOf(found, asked, now));
  presented.set(found, { asked: key, year, answer: made });
  return made;
}

function answerOf(found: CleanerSearch, asked: { zip: string; job: Job }, now: Date) {
  const { zip, job } = asked;
  const cleaners = present(found.offers, now);
  // Copies of what the request and the kept quotes own: the answer is frozen, they are not.
  return {
    zip,
    job: structuredClone(job),
    count: cleaners.length,
    cleaners,
    not_offered: found.notOffered.map(({ pro, unpriced }) => ({ cleaner_id: pro.id, name: pro.name, missing: [...unpriced] })),
    checks_note: CHECKS_NOTE,
    ...(cleaners.length === 0 ? { message: noCleanersMessage(zip, found.serving, found.notOffering) } : {}),
  };
}

/** One search's cleaners as answers show them. */
function present(offers: CleanerOffer[], now: Date) {
  return offers.map(({ pro, quote, times, checks }) => {
    return {
      cleaner_id: pro.id,
      name: pro.name,
      website: pro.website,
      total: toUsd(quote.total_cents),
      price: presentPrice(quote),
      timezone: pro.timezone,
      next_open_times: times.map((t) => presentOpenTime(t, pro.timezone, now)),
      checks: checks.map(presentCheck),
    };
  });
}

export const findCleanersOperation = (ctx: AppContext) =>
  defineOperation({
    name: 'find_cleaners',
    tag: 'cleaners',
    title: 'Find cleaners for a ZIP',
    description:
      'Cleaners serving a ZIP, each with a firm total (everything included, no added fees) and next open starts; not_offered names those lacking an add-on or the clean type. Its checks are dated best-effort checks: never present them as a guarantee or endorsement.',
    method: 'GET',
    input: fields(
      {
        zip: zipSchema,
        ...jobFieldSchemas,
        ...openTimesFieldSchemas,
        limit: integer({ minimum: 1, maximum: 50, default: 10, description: 'Cleaners to list.' }),
      },
      ['zip', 'bedrooms', 'bathrooms'],
    ),
    output: answer(
      {
        zip: str,
        job: jobSchema,
        count: int,
        cleaners: listOf(
          answer({
            cleaner_id: str,
            name: str,
            website: nullable(str),
            total: num,
            price: priceSchema,
            timezone: str,
            next_open_times: listOf(openTimeSchema),
            checks: listOf(checkSchema),
          }),
        ),
        /** Cleaners serving the ZIP left out of cleaners: each lacks what missing names (an add-on or the clean type). */
        not_offered: listOf(answer({ cleaner_id: str, name: str, missing: listOf(str) })),
        checks_note: str,
        ...MESSAGE,
      },
      ['message'],
    ),
    ...STALE_READS,
    async handler(input, { now }) {
      const { job, search } = await findCleanersFor(ctx.db, input, { now, changes: ctx.changes });
      return presentSearch(search, { zip: input.zip, job }, now);
    },
  });

export const availableTimes = (ctx: AppContext, times = cleanerTimesReader(ctx.db, ctx.changes)) =>
  defineOperation({
    name: 'available_times',
    tag: 'cleaners',
    title: "List a cleaner's open times",
    description: "One cleaner's open starts for the job by day, with the firm total; pass a start unchanged to book_cleaning.",
    method: 'GET',
    input: fields({ cleaner_id: cleanerIdSchema, ...jobFieldSchemas, ...openTimesFieldSchemas }, ['cleaner_id', 'bedrooms', 'bathrooms']),
    output: answer(
      {
        cleaner: answer({ cleaner_id: str, name: str }),
        timezone: str,
        from: str,
        days: int,
        total: num,
        price: priceSchema,
        ...openTimesList,
      },
      ['message'],
    ),
    ...STALE_READS,
    async handler(input, { now }) {
      const { pro, quote, timezone, from, days, ...rest } = await times(input, now);
      return {
        cleaner: { cleaner_id: pro.id, name: pro.name },
        timezone,
        from,
        days,
        total: toUsd(quote.total_cents),
        price: presentPrice(quote),
        ...rest,
      };
    },
  });
