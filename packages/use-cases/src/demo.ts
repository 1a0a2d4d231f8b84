import { DEFAULT_WEEKLY_HOURS } from '@frontdesk/domain';
import { addProCheck, createPro, getPro, rotateProKey, type Db, type Pro } from '@frontdesk/db';

export const DEMO_PRO_NAME = 'Sparkle & Shine Cleaning (demo)';

/**
 * Loads the demo business if it is not there yet, and returns it with a usable key. Keys
 * are stored only as hashes, so an existing demo business gets a fresh key each time.
 */
/** The demo's owner: its dashboard signs in with this address (the code is printed locally). */
export const DEMO_OWNER_EMAIL = 'owner@sparkle-shine.example';

export async function loadDemoBusiness(db: Db): Promise<{ pro: Pro; apiKey: string; created: boolean }> {
  const existing = await db.selectFrom('pros').select('id').where('name', '=', DEMO_PRO_NAME).orderBy('created_at').executeTakeFirst();
  if (existing) {
    const apiKey = (await rotateProKey(db, existing.id))!;
    // A demo made before businesses had owners gets its owner now, unless the address is taken.
    await db
      .updateTable('pros')
      .set({ owner_email: DEMO_OWNER_EMAIL })
      .where('id', '=', existing.id)
      .where('owner_email', 'is', null)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('pros as o').select('o.id').where('o.owner_email', '=', DEMO_OWNER_EMAIL))))
      .execute();
    await addDemoChecks(db, existing.id);
    return { pro: (await getPro(db, existing.id))!, apiKey, created: false };
  }
  const { pro, apiKey } = await createPro(db, {
    name: DEMO_PRO_NAME,
    timezone: 'America/New_York',
    service_zips: ['10001', '10002', '10003', '11201'],
    phone: '(212) 555-0142',
    email: 'hello@sparkle-shine.example',
    owner_email: DEMO_OWNER_EMAIL,
    website: 'https://sparkle-shine.example',
    weekly_hours: { ...DEFAULT_WEEKLY_HOURS },
  });
  await addDemoChecks(db, pro.id);
  return { pro, apiKey, created: true };
}

/** The demo's best-effort checks, dated today, unless it has some already. */
async function addDemoChecks(db: Db, proId: string): Promise<void> {
  if (await db.selectFrom('pro_checks').select('id').where('pro_id', '=', proId).executeTakeFirst()) return;
  const today = new Date().toISOString().slice(0, 10);
  await addProCheck(db, { proId, kind: 'website_ownership', subject: 'sparkle-shine.example', passed: true, checkedOn: today });
  await addProCheck(db, { proId, kind: 'marketplace_profile', subject: 'marketplace_1', passed: true, rating: 4.8, reviews: 127, checkedOn: today });
}
