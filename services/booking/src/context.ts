import type { ChangeFeed, Db } from '@frontdesk/db';
import type { Logger } from '@frontdesk/http';
import type { ClientMetadataFetchOptions } from '@frontdesk/oauth';
import type { HostMail } from '@frontdesk/use-cases';
import { hostMailOptions } from '@frontdesk/workers';
import type { BookingConfig } from './config';

/** Every dependency of the booking app, in one plain object; tests pass their own. */
export interface AppContext {
  db: Db;
  config: Pick<BookingConfig, 'publicUrl' | 'mcpAllowedOrigins' | 'proDeskUrl' | 'publicSharedKey' | 'keySealer'> &
    Partial<Pick<BookingConfig, 'publicClientId' | 'publicClientRedirectUris' | 'rateLimits' | 'trustProxy' | 'checkAnswers' | 'requestDeadlineMs'>> & {
      /** Tests only: how client metadata documents are fetched (their own machine, their own certificate). */
      clientDocuments?: ClientMetadataFetchOptions;
    };
  logger: Logger;
  clock: () => Date;
  /** What this process hears about changes: without it nothing about a pro is kept between calls. */
  changes?: ChangeFeed;
}

/** This host's mail to rental hosts: its own address for their pages, made once per configuration (its workers take the same). */
export const hostMailOf = (config: Pick<BookingConfig, 'publicUrl' | 'proDeskUrl' | 'keySealer'>): HostMail =>
  hostMailOptions(config, { bookingUrl: config.publicUrl, proDeskUrl: config.proDeskUrl, keySealer: config.keySealer });
