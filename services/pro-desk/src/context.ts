import type { ChangeFeed, Db } from '@frontdesk/db';
import type { Logger } from '@frontdesk/http';
import type { ClientMetadataFetchOptions } from '@frontdesk/oauth';
import type { HostMail } from '@frontdesk/use-cases';
import { hostMailOptions } from '@frontdesk/workers';
import type { ProDeskConfig } from './config';

/** Every dependency of the pro-desk app, in one plain object; tests pass their own. */
export interface AppContext {
  db: Db;
  config: Pick<ProDeskConfig, 'publicUrl' | 'mcpAllowedOrigins' | 'bookingUrl' | 'keySealer'> &
    Partial<Pick<ProDeskConfig, 'publicClientId' | 'publicClientRedirectUris' | 'rateLimits' | 'trustProxy' | 'checkAnswers' | 'requestDeadlineMs'>> & {
      /** Tests only: how client metadata documents are fetched (their own machine, their own certificate). */
      clientDocuments?: ClientMetadataFetchOptions;
    };
  logger: Logger;
  clock: () => Date;
  /** What this process hears about changes: without it nothing about a pro is kept between calls. */
  changes?: ChangeFeed;
}

/** The pro desk's mail to rental hosts: BOOKING_URL for their pages, made once per configuration (its workers take the same). */
export const hostMailOf = (config: Pick<ProDeskConfig, 'publicUrl' | 'bookingUrl' | 'keySealer'>): HostMail =>
  hostMailOptions(config, { bookingUrl: config.bookingUrl, proDeskUrl: config.publicUrl, keySealer: config.keySealer });
