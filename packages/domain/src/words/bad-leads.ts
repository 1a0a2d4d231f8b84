/**
 * Why a bad-lead reason is refused when our own records contradict it: a credit request
 * is pasted to a platform as fact, so it never claims what the records disprove. (notFlagged
 * in leads.ts turns one into the refusal.)
 */

export const BOOKED_CONTRADICTS_NO_RESPONSE =
  'Our records show this lead was booked, so the customer did respond; a "no response" credit request would contradict them. Choose the reason that did happen, or do not flag this lead.';

export const servedZipContradictsOutOfArea = (zip: string) =>
  `Our records show ZIP ${zip} is in this business's service area, so "out of area" would contradict them. Change the service ZIPs first if the area changed, or choose another reason.`;

export const OFFERED_CONTRADICTS_NOT_OFFERED =
  'Our records show the clean type and add-ons this lead asked for are offered, so "service not offered" would contradict them. Choose another reason.';
