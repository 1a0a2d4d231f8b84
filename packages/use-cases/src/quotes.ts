import { priceJob, requireFirmQuote, type Job, type Quote } from '@frontdesk/domain';
import { KeptValues, type ProProfile } from '@frontdesk/db';

// A quote depends only on the job and the pro's price list, which config_version versions: both are in the key.
const MAX_CACHED_QUOTES = 50_000;
const quoteCache = new KeptValues<Quote>(MAX_CACHED_QUOTES);

/** The pro's quote for the job (`jobKey` is the job as JSON), priced once per price list: firm or not, as priceJob gives it. */
export function quoteFor(pro: Pick<ProProfile, 'id' | 'config_version' | 'price_list'>, job: Job, jobKey: string): Quote {
  const key = `${pro.id}|${pro.config_version}|${jobKey}`;
  let quote = quoteCache.get(key);
  if (!quote) quoteCache.keep(key, (quote = priceJob(job, pro.price_list)));
  return quote;
}

/** requireFirmQuote through the same kept quotes: a job the pro does not offer is refused as requireFirmQuote refuses it. */
export function firmQuoteFor(pro: Pick<ProProfile, 'id' | 'config_version' | 'price_list'>, job: Job, jobKey: string): Quote {
  const quote = quoteFor(pro, job, jobKey);
  return quote.unpriced.length === 0 ? quote : requireFirmQuote(job, pro.price_list);
}
