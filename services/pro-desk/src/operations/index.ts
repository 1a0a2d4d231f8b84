import type { Operation } from '@frontdesk/http';
import type { Pro } from '@frontdesk/db';
import type { AppContext } from '../context';
import { myBusiness, schedule } from './business';
import { bookJob, cancelJob, reportNoShowOperation, rescheduleJob } from './bookings';
import { flagBadLead, followUpsDue, logLead, updateLeadOperation } from './leads';
import { openTimesOperation, quoteJob } from './pricing';
import { pipeline, updates } from './reports';
import { addTimeOffOperation, removeTimeOffOperation, updateBusiness } from './settings';

/** The pro-desk operation registry: REST routes, /openapi.json and MCP tools come from this list. */
export function proDeskOperations(ctx: AppContext): Operation<Pro>[] {
  return [
    myBusiness(ctx),
    logLead(ctx),
    quoteJob(ctx),
    openTimesOperation(ctx),
    bookJob(ctx),
    followUpsDue(ctx),
    updateLeadOperation(ctx),
    flagBadLead(ctx),
    cancelJob(ctx),
    rescheduleJob(ctx),
    updates(ctx),
    reportNoShowOperation(ctx),
    pipeline(ctx),
    schedule(ctx),
    updateBusiness(ctx),
    addTimeOffOperation(ctx),
    removeTimeOffOperation(ctx),
  ];
}

export { presentBusiness } from './business';
