import { customAlphabet } from 'nanoid';

// Lower-case letters and digits read well aloud and survive any copy and paste.
const readable = customAlphabet('0123456789abcdefghijklmnopqrstuvwxyz', 14);

export type IdPrefix = 'pro' | 'lead' | 'bk' | 'key' | 'off' | 'ntf' | 'chk' | 'sic' | 'msg' | 'sr' | 'crew' | 'wh' | 'hold' | 'prop' | 'feed' | 'stay';

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${readable()}`;
}
