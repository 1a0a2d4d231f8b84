import type { Operation } from '@frontdesk/http';
import type { Pro } from '@frontdesk/db';
import type { AppContext } from '../context';
import { myBusiness, schedule } from './business';
import { bookJob, cancelJob } from './bookings';
import { openTimesOperation, quoteJob } from './pricing';

/** The pro-desk operation registry: REST routes, /openapi.json and MCP tools come from this list. */
export function proDeskOperations(ctx: AppContext): Operation<Pro>[] {
  return [myBusiness(ctx), quoteJob(ctx), openTimesOperation(ctx), bookJob(ctx), cancelJob(ctx), schedule(ctx)];
}
