import type { Operation } from '@frontdesk/http';
import type { Pro } from '@frontdesk/db';
import type { AppContext } from '../context';
import { myBusiness, schedule } from './business';
import { bookJob, cancelJob, reportNoShowOperation, rescheduleJob } from './bookings';
import { flagBadLead, followUpsDue, logLead, updateLeadOperation } from './leads';
import { openTimesOperation, quoteJob } from './pricing';
import { pipeline, updates } from './reports';
import { addTimeOffOperation, removeTimeOffOperation, updateBusiness } from './settings';
import { addCrewOperation, assignJobOperation, removeCrewOperation, updateCrewOperation } from './crews';
import {
  addWebhookOperation,
  listWebhooksOperation,
  removeWebhookOperation,
  rotateWebhookSecretOperation,
  testWebhookOperation,
  updateWebhookOperation,
} from './webhooks';

/** The pro-desk operations by name, for the dashboard that runs them as an assistant would. */
export function proDeskOperationSet(ctx: AppContext) {
  return {
    my_business: myBusiness(ctx),
    log_lead: logLead(ctx),
    quote_job: quoteJob(ctx),
    open_times: openTimesOperation(ctx),
    book_job: bookJob(ctx),
    follow_ups_due: followUpsDue(ctx),
    update_lead: updateLeadOperation(ctx),
    flag_bad_lead: flagBadLead(ctx),
    cancel_job: cancelJob(ctx),
    reschedule_job: rescheduleJob(ctx),
    updates: updates(ctx),
    report_no_show: reportNoShowOperation(ctx),
    pipeline: pipeline(ctx),
    schedule: schedule(ctx),
    update_business: updateBusiness(ctx),
    add_time_off: addTimeOffOperation(ctx),
    remove_time_off: removeTimeOffOperation(ctx),
    add_crew: addCrewOperation(ctx),
    update_crew: updateCrewOperation(ctx),
    remove_crew: removeCrewOperation(ctx),
    assign_job: assignJobOperation(ctx),
    list_webhooks: listWebhooksOperation(ctx),
    add_webhook: addWebhookOperation(ctx),
    update_webhook: updateWebhookOperation(ctx),
    remove_webhook: removeWebhookOperation(ctx),
    rotate_webhook_secret: rotateWebhookSecretOperation(ctx),
    test_webhook: testWebhookOperation(ctx),
  };
}
export type ProDeskOperationSet = ReturnType<typeof proDeskOperationSet>;

/** The pro-desk operation registry: REST routes, /openapi.json and MCP tools come from this list. */
export function proDeskOperations(ctx: AppContext, set = proDeskOperationSet(ctx)): Operation<Pro>[] {
  return Object.values(set);
}

export { presentBusiness } from './business';
export { presentCrew } from './crews';
