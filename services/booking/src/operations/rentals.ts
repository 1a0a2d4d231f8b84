import {
  answer,
  BOOK_HOST_FEE_CENTS,
  customerFieldSchemas,
  fields,
  oneOf,
  PROPERTY_MODES,
  propertyFieldSchemas,
  str,
  turnoversRequestedMessage,
} from '@frontdesk/domain';
import { rentalLinkAgain, requestTurnovers } from '@frontdesk/use-cases';
import { WRITES, type KeptAnswer } from '@frontdesk/http';
import { hostMailOf, type AppContext } from '../context';
import { cleanerIdSchema } from './cleaners';
import { defineOperation } from './define';

/** A field without its words: the tool's description says them once for both (the budget). */
const bare = <T extends { description?: string }>({ description: _words, ...schema }: T) => schema as T;

const { name, address, zip, bedrooms, bathrooms, add_ons, pets, checkout_time, checkin_time, calendar_urls } = propertyFieldSchemas;

/** The link is a credential: kept out of the stored answer, and made again (the same link) on a retry. */
const retryOf = (ctx: AppContext): KeptAnswer => ({
  keep: ({ manage_url: _link, message: _words, ...rest }: { manage_url?: string; message?: string }) => rest,
  async replay(kept) {
    const k = kept as { property_id: string; cleaner_id: string; cleaner_name: string; name: string; mode: 'book' | 'propose' };
    const manageUrl = (await rentalLinkAgain(ctx.db, hostMailOf(ctx.config), { cleanerId: k.cleaner_id, propertyId: k.property_id })) ?? '';
    return {
      ...k,
      manage_url: manageUrl,
      message: turnoversRequestedMessage({ proName: k.cleaner_name, property: k.name, book: k.mode === 'book' }),
    };
  },
});

const requestInput = fields(
  {
    cleaner_id: cleanerIdSchema,
    name,
    address,
    zip,
    bedrooms,
    bathrooms,
    add_ons,
    pets,
    checkout_time,
    checkin_time,
    calendar_urls,
    customer_name: customerFieldSchemas.customer_name,
    customer_phone: bare(customerFieldSchemas.customer_phone),
    customer_email: bare(customerFieldSchemas.customer_email),
  },
  ['cleaner_id', 'name', 'address', 'zip', 'bedrooms', 'bathrooms', 'calendar_urls'],
);

const requestOutput = answer({
  property_id: str,
  cleaner_id: str,
  cleaner_name: str,
  name: str,
  mode: oneOf(PROPERTY_MODES),
  manage_url: str,
  message: str,
});

export const requestTurnoversOperation = (ctx: AppContext) =>
  defineOperation({
    name: 'request_turnovers',
    tag: 'rentals',
    title: 'Ask a cleaner for turnovers',
    description: `A rental host's calendars become turnover cleans by this cleaner; the host (customer_*, phone or email) is mailed each change. One ${BOOK_HOST_FEE_CENTS / 100} USD fee. Confirm first; give the manage_url.`,
    method: 'POST',
    input: requestInput,
    // add_ons is judged and in OpenAPI but off the tool (the book host's tools/list budget): a turnover rarely names one.
    toolFields: Object.keys(requestInput.properties).filter((f) => f !== 'add_ons'),
    output: requestOutput,
    ...WRITES,
    // Reads the host's calendars from then on and mails the host.
    openWorld: true,
    async handler(input, { principal, now }) {
      const host = hostMailOf(ctx.config);
      const { pro, property, manageUrl } = await requestTurnovers(ctx.db, { user: principal.user, accountEmail: principal.email, host }, input, now);
      return {
        property_id: property.property_id,
        cleaner_id: pro.id,
        cleaner_name: pro.name,
        name: property.name,
        mode: property.mode,
        manage_url: manageUrl,
        message: turnoversRequestedMessage({ proName: pro.name, property: property.name, book: property.mode === 'book' }),
      };
    },
    retry: retryOf(ctx),
  });
