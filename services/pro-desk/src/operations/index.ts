import { byName } from '@frontdesk/http';
import type { AppContext } from '../context';
import { myBusiness, schedule } from './business';
import { bookJob, cancelJob, notifyOnMyWayOperation, pauseSeriesOperation, reportNoShowOperation, rescheduleJob } from './bookings';
import { holdTime, releaseHoldOperation } from './holds';
import { flagBadLead, followUpsDue, logLead, updateLeadOperation } from './leads';
import { openTimesOperation, quoteJob } from './pricing';
import { pipeline, updates } from './reports';
import { clientHistoryOperation, listClientsOperation, updateClientNotesOperation } from './clients';
import { addTimeOffOperation, removeTimeOffOperation, updateBusiness } from './settings';
import { addCrewOperation, assignJobOperation, removeCrewOperation, updateCrewOperation } from './crews';
import { addPropertyOperation, listPropertiesOperation, removePropertyOperation, syncPropertyOperation, updatePropertyOperation } from './properties';
import {
  addWebhookOperation,
  listWebhooksOperation,
  removeWebhookOperation,
  rotateWebhookSecretOperation,
  testWebhookOperation,
  updateWebhookOperation,
} from './webhooks';

/** The pro-desk operations by name (each named once, on its definition), for the dashboard that runs them as an assistant would. */
export function proDeskOperationSet(ctx: AppContext) {
  return byName([
    myBusiness(ctx),
    logLead(ctx),
    quoteJob(ctx),
    openTimesOperation(ctx),
    holdTime(ctx),
    bookJob(ctx),
    releaseHoldOperation(ctx),
    followUpsDue(ctx),
    updateLeadOperation(ctx),
    flagBadLead(ctx),
    cancelJob(ctx),
    rescheduleJob(ctx),
    pauseSeriesOperation(ctx),
    updates(ctx),
    reportNoShowOperation(ctx),
    notifyOnMyWayOperation(ctx),
    pipeline(ctx),
    schedule(ctx),
    listClientsOperation(ctx),
    clientHistoryOperation(ctx),
    updateClientNotesOperation(ctx),
    updateBusiness(ctx),
    addTimeOffOperation(ctx),
    removeTimeOffOperation(ctx),
    addCrewOperation(ctx),
    updateCrewOperation(ctx),
    removeCrewOperation(ctx),
    assignJobOperation(ctx),
    listWebhooksOperation(ctx),
    addWebhookOperation(ctx),
    updateWebhookOperation(ctx),
    removeWebhookOperation(ctx),
    rotateWebhookSecretOperation(ctx),
    testWebhookOperation(ctx),
    listPropertiesOperation(ctx),
    addPropertyOperation(ctx),
    updatePropertyOperation(ctx),
    removePropertyOperation(ctx),
    syncPropertyOperation(ctx),
  ]);
}
export type ProDeskOperationSet = ReturnType<typeof proDeskOperationSet>;

export { presentBusiness } from './business';
export { crewChangeFields, presentCrew } from './crews';
