import { DEFAULT_WEEKLY_HOURS, localDate } from '@frontdesk/domain';
import { claimOwnerEmail, getPro, hasProChecks, proNamed, type Db, type Pro } from '@frontdesk/db';
import { createBusiness, recordCheck, rotateBusinessKey } from './business';

export const DEMO_PRO_NAME = 'Sparkle & Shine Cleaning (demo)';

/** The demo's owner: its dashboard signs in with this address (the code is printed locally). */
export const DEMO_OWNER_EMAIL = 'owner@sparkle-shine.example';

/**
 * Loads the demo business if it is not there yet, and returns it with a usable key. Keys
 * are stored only as hashes, so an existing demo business gets a fresh key each time.
 */
export async function loadDemoBusiness(db: Db, now: Date): Promise<{ pro: Pro; apiKey: string; created: boolean }> {
  const existing = await proNamed(db, DEMO_PRO_NAME);
  if (existing) {
    const apiKey = await rotateBusinessKey(db, existing.id, now);
    // A demo made before businesses had owners gets its owner now, unless the address is taken.
    await claimOwnerEmail(db, existing.id, DEMO_OWNER_EMAIL);
    await addDemoChecks(db, existing, now);
    return { pro: (await getPro(db, existing.id))!, apiKey, created: false };
  }
  const { pro, apiKey } = await createBusiness(db, {
    name: DEMO_PRO_NAME,
    timezone: 'America/New_York',
    service_zips: ['10001', '10002', '10003', '11201'],
    phone: '(212) 555-0142',
    email: 'hello@sparkle-shine.example',
    owner_email: DEMO_OWNER_EMAIL,
    website: 'https://sparkle-shine.example',
    weekly_hours: { ...DEFAULT_WEEKLY_HOURS },
  });
  await addDemoChecks(db, pro, now);
  return { pro, apiKey, created: true };
}

/** The demo's best-effort checks, dated today in its zone, unless it has some already. */
async function addDemoChecks(db: Db, pro: Pro, now: Date): Promise<void> {
  if (await hasProChecks(db, pro.id)) return;
  const today = localDate(now, pro.timezone);
  await recordCheck(db, { proId: pro.id, kind: 'website_ownership', subject: 'sparkle-shine.example', passed: true, checkedOn: today });
  await recordCheck(db, { proId: pro.id, kind: 'marketplace_profile', subject: 'marketplace_1', passed: true, rating: 4.8, reviews: 127, checkedOn: today });
}
