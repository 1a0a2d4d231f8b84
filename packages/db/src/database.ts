import type { BookingsTable } from './tables/bookings';
import type { EventsTable } from './tables/events';
import type { LeadsTable } from './tables/leads';
import type { NotificationsTable } from './tables/notifications';
import type { ProApiKeysTable } from './tables/pro-api-keys';
import type { PersonalKeysTable } from './tables/personal-keys';
import type { ProChecksTable } from './tables/pro-checks';
import type { ProsTable } from './tables/pros';
import type { CrewsTable } from './tables/crews';
import type { CrewCalendarFeedsTable } from './tables/crew-calendar-feeds';
import type { WebhooksTable } from './tables/webhooks';
import type { SignInCodesTable } from './tables/sign-in-codes';
import type { OutboxTable } from './tables/outbox';
import type { KeySessionsTable } from './tables/key-sessions';
import type {
  OAuthClientsTable,
  OAuthCodesTable,
  OAuthRefreshTokensTable,
  OAuthRequestsTable,
  OAuthRevokedSignInsTable,
  OAuthSigningKeysTable,
} from './tables/oauth';
import type { RateLimitsTable } from './tables/rate-limits';
import type { TimeOffTable } from './tables/time-off';
import type { HoldsTable } from './tables/holds';
import type { IdempotencyKeysTable } from './tables/idempotency-keys';
import type { ProSessionsTable } from './tables/pro-sessions';
import type { CalendarFeedsTable } from './tables/calendar-feeds';
import type { SeriesTable } from './tables/series';
import type { ClientsTable } from './tables/clients';
import type { CustomerMessagesTable, MailUnsubscribesTable, UnsubscribeLinksTable } from './tables/customer-messages';
import type { OwnerAgendasTable } from './tables/owner-agendas';
import type { PropertiesTable, PropertyFeedsTable, StaysTable } from './tables/properties';
import type { StoppedRentalsTable } from './tables/stopped-rentals';

export interface Database {
  pros: ProsTable;
  crews: CrewsTable;
  crew_calendar_feeds: CrewCalendarFeedsTable;
  pro_api_keys: ProApiKeysTable;
  time_off: TimeOffTable;
  leads: LeadsTable;
  bookings: BookingsTable;
  events: EventsTable;
  webhooks: WebhooksTable;
  notifications: NotificationsTable;
  personal_keys: PersonalKeysTable;
  pro_checks: ProChecksTable;
  sign_in_codes: SignInCodesTable;
  outbox: OutboxTable;
  key_sessions: KeySessionsTable;
  oauth_clients: OAuthClientsTable;
  oauth_requests: OAuthRequestsTable;
  oauth_codes: OAuthCodesTable;
  oauth_refresh_tokens: OAuthRefreshTokensTable;
  oauth_signing_keys: OAuthSigningKeysTable;
  idempotency_keys: IdempotencyKeysTable;
  oauth_revoked_sign_ins: OAuthRevokedSignInsTable;
  rate_limits: RateLimitsTable;
  pro_sessions: ProSessionsTable;
  calendar_feeds: CalendarFeedsTable;
  series: SeriesTable;
  holds: HoldsTable;
  clients: ClientsTable;
  customer_messages: CustomerMessagesTable;
  mail_unsubscribes: MailUnsubscribesTable;
  unsubscribe_links: UnsubscribeLinksTable;
  owner_agendas: OwnerAgendasTable;
  properties: PropertiesTable;
  property_feeds: PropertyFeedsTable;
  stays: StaysTable;
  stopped_rentals: StoppedRentalsTable;
}
