import type { ChangeFeed, Db } from '@frontdesk/db';
import type { Logger } from '@frontdesk/http';
import type { ClientMetadataFetchOptions } from '@frontdesk/oauth';
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
