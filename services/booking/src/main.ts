// First, before anything loads http, express or pg: traces, when an OTLP endpoint is set.
import './tracing';
import { openServiceDb } from '@frontdesk/db';
import { runHost } from '@frontdesk/http';
import { startWorkers, webhookOptions } from '@frontdesk/workers';
import { createBookingApp } from './app';
import { readBookingConfig } from './config';
import { hostMailOf } from './context';

/** Entry point of the deployable booking service: config, workers, app, serve. */
runHost({
  name: 'booking',
  portVariable: 'BOOKING_PORT',
  readConfig: readBookingConfig,
  openDb: openServiceDb,
  startWorkers: (parts, config) =>
    startWorkers({
      ...parts,
      mail: config.mail,
      customerMail: { bookingUrl: config.publicUrl },
      webhooks: webhookOptions(config),
      hostMail: hostMailOf(config),
    }),
  createApp: createBookingApp,
});
