import { operationsFor } from '@frontdesk/http';
import type { Pro } from '@frontdesk/db';
import type { PRO_DESK_TAGS } from '../tags';

/** Defines an operation of the pro host, called with the business's key or sign-in: its name, input and answer types come from its definition, and its tag is one of the host's areas. */
export const defineOperation = operationsFor<Pro, (typeof PRO_DESK_TAGS)[number]['name']>();
