import type { Migration } from 'kysely/migration';
import * as initialSchema from './20261121T110000-initial-schema';
import * as customerBooking from './20261121T120000-customer-booking';
import * as proConfigVersion from './20261121T130000-pro-config-version';
import * as signInAndOutbox from './20261121T140000-sign-in-and-outbox';
import * as oauth from './20261121T150000-oauth';
import * as idempotencyKeys from './20261121T160000-idempotency-keys';
import * as security from './20261121T170000-security';
import * as changeNotifications from './20261121T180000-change-notifications';
import * as businessAccounts from './20261122T100000-business-accounts';
import * as dashboard from './20261122T110000-dashboard';
import * as series from './20261122T120000-series';
import * as dashboardSeen from './20261124T120000-dashboard-seen';
import * as ownerNotices from './20261124T130000-owner-notices';
import * as crews from './20261125T120000-crews';
import * as oauthIssuer from './20261125T130000-oauth-issuer';
import * as idempotencyHolder from './20261125T140000-idempotency-holder';
import * as webhooks from './20261125T150000-webhooks';
import * as bookingRevisions from './20261125T160000-booking-revisions';
import * as webhookOlderSecret from './20261125T170000-webhook-older-secret';
import * as holds from './20261126T120000-holds';
import * as seriesPlans from './20261127T120000-series-plans';
import * as clients from './20261127T140000-clients';
import * as customerMessages from './20261128T120000-customer-messages';
import * as onMyWayAndAgenda from './20261128T130000-on-my-way-and-agenda';
import * as properties from './20261128T140000-properties';
import * as hostTurnovers from './20261128T150000-host-turnovers';
import * as turnoverProperty from './20261128T180000-turnover-property';
import * as stoppedRentals from './20261128T190000-stopped-rentals';

/** Every migration, by name, in order. Add new ones at the end. */
export const migrations: Record<string, Migration> = {
  '20261121T110000-initial-schema': initialSchema,
  '20261121T120000-customer-booking': customerBooking,
  '20261121T130000-pro-config-version': proConfigVersion,
  '20261121T140000-sign-in-and-outbox': signInAndOutbox,
  '20261121T150000-oauth': oauth,
  '20261121T160000-idempotency-keys': idempotencyKeys,
  '20261121T170000-security': security,
  '20261121T180000-change-notifications': changeNotifications,
  '20261122T100000-business-accounts': businessAccounts,
  '20261122T110000-dashboard': dashboard,
  '20261122T120000-series': series,
  '20261124T120000-dashboard-seen': dashboardSeen,
  '20261124T130000-owner-notices': ownerNotices,
  '20261125T120000-crews': crews,
  '20261125T130000-oauth-issuer': oauthIssuer,
  '20261125T140000-idempotency-holder': idempotencyHolder,
  '20261125T150000-webhooks': webhooks,
  '20261125T160000-booking-revisions': bookingRevisions,
  '20261125T170000-webhook-older-secret': webhookOlderSecret,
  '20261126T120000-holds': holds,
  '20261127T120000-series-plans': seriesPlans,
  '20261127T140000-clients': clients,
  '20261128T120000-customer-messages': customerMessages,
  '20261128T130000-on-my-way-and-agenda': onMyWayAndAgenda,
  '20261128T140000-properties': properties,
  '20261128T150000-host-turnovers': hostTurnovers,
  '20261128T180000-turnover-property': turnoverProperty,
  '20261128T190000-stopped-rentals': stoppedRentals,
};
