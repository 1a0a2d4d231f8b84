import unhomoglyph from 'unhomoglyph';
import { oauthWords } from '@frontdesk/domain';

/** The name of the pre-registered client, which no registered client may take or imitate. */
export const OWN_CLIENT_NAME = 'Front Desk';

/**
 * What a name looks like, whatever characters spell it: compatibility forms folded (NFKC:
 * fullwidth Ｆ is F), accents dropped, then the Unicode confusables skeleton (UTS #39, the
 * unhomoglyph table: Cyrillic о is o, 0 is O, I and 1 are l) before and after lower-casing,
 * and everything but letters and digits left out ("Front-Desk app" reads "frontdeskapp").
 */
export function lookalikeKey(name: string): string {
  const plain = name.normalize('NFKC').normalize('NFD').replace(/\p{M}/gu, '').normalize('NFKC');
  return unhomoglyph(unhomoglyph(plain).toLowerCase())
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

const OWN_KEY = lookalikeKey(OWN_CLIENT_NAME);

/** True for a client name that reads as ours ("Front Desk", "front-desk", "FrontDesk app", "Frоnt Desk" in Cyrillic, fullwidth). */
export const imitatesOwnClient = (name: string) => lookalikeKey(name).includes(OWN_KEY);

/**
 * Characters a shown name may not hold: control and format characters (Unicode Cc and Cf:
 * NUL, the bidi overrides and isolates, zero-width joiners and spaces), lone surrogates and
 * line or paragraph separators. They reorder or hide what a consent page shows.
 */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/u;

/** Why a client's name cannot be shown on a consent page, or null when it can. */
export function clientNameProblem(name: string): string | null {
  if (HIDDEN.test(name)) return oauthWords.clientNameHiddenCharacters();
  if (imitatesOwnClient(name)) return oauthWords.imitatesOwnClient(OWN_CLIENT_NAME);
  return null;
}
