import { operationsFor } from '@frontdesk/http';
import type { Customer } from '../auth';
import type { BOOKING_TAGS } from '../tags';

/** Defines an operation of the book host, called for a customer: its name, input and answer types come from its definition, and its tag is one of the host's areas. */
export const defineOperation = operationsFor<Customer, (typeof BOOKING_TAGS)[number]['name']>();
