import { alreadyOwnsBusiness, checkNewPro, checkPhone, checkWebsite } from '@frontdesk/domain';
import { isOwnerEmailTaken, proOwnedBy, type Db, type Pro, type SecretHashKeys } from '@frontdesk/db';
import { createBusiness } from './business';
import { verifySignInCode } from './sign-in';

export interface SignUpInput {
  email: string;
  code: string;
  name: string;
  timezone: string;
  service_zips: string[];
  phone?: string | null;
  website?: string | null;
}

/**
 * A cleaning business signs itself up: the details are checked first (so a typo does not
 * spend the code), then the emailed code, then the business is created with the default
 * price list and hours and its first key, shown once. The verified address becomes the
 * business's account and its contact email; an address that already owns a business is
 * told so, and the unique index keeps two racing sign-ups from making two. On the page
 * (`openSession`) the owner is signed in to the dashboard too: the code just proved the address.
 */
export async function signUpBusiness(
  db: Db,
  input: SignUpInput,
  { now, keys, openSession = false }: { now: Date; keys: SecretHashKeys; openSession?: boolean },
): Promise<{ pro: Pro; apiKey: string; session: string | null }> {
  checkNewPro(input);
  const phone = checkPhone(input.phone);
  const website = checkWebsite(input.website);
  const email = await verifySignInCode(db, input.email, input.code, { now, keys });
  const owned = await proOwnedBy(db, email);
  if (owned) throw alreadyOwnsBusiness(email, owned.name);
  try {
    return await createBusiness(
      db,
      {
        name: input.name,
        timezone: input.timezone,
        service_zips: input.service_zips,
        phone,
        website,
        email,
        owner_email: email,
      },
      openSession ? { sessionFrom: now } : {},
    );
  } catch (err) {
    if (!isOwnerEmailTaken(err)) throw err;
    const winner = await proOwnedBy(db, email);
    throw alreadyOwnsBusiness(email, winner?.name ?? 'a business');
  }
}
