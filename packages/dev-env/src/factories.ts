import { DEFAULT_WEEKLY_HOURS, newBusiness, normalizeJob, type JobInput, type NewBusinessInput } from '@frontdesk/domain';
import { randomBytes } from 'node:crypto';
import { insertPro, issueProKey, type Db } from '@frontdesk/db';

/** A pro with a random name and the defaults, open every day so tests need not dodge weekends. */
export async function makePro(db: Db, over: Partial<NewBusinessInput> = {}) {
  const everyDay = { ...DEFAULT_WEEKLY_HOURS, '6': [{ start: '08:00', end: '17:00' }], '7': [{ start: '08:00', end: '17:00' }] };
  const pro = await insertPro(
    db,
    newBusiness({
      name: `Sparkle ${randomBytes(3).toString('hex')}`,
      timezone: 'America/New_York',
      service_zips: ['10001', '10002'],
      weekly_hours: everyDay,
      ...over,
    }),
  );
  return { pro, apiKey: await issueProKey(db, pro.id) };
}

export const job = (over: Partial<JobInput> = {}) => normalizeJob({ bedrooms: 2, bathrooms: 1, ...over });
