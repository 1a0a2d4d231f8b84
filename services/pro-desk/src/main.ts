// First, before anything loads http, express or pg: traces, when an OTLP endpoint is set.
import './tracing';
import { migrateDatabase, openServiceDb } from '@frontdesk/db';
import { runHost } from '@frontdesk/http';
import { startWorkers, webhookOptions } from '@frontdesk/workers';
import { createProDeskApp } from './app';
import { readProDeskConfig } from './config';
import { hostMailOf } from './context';

/** Entry point of the deployable pro-desk service: config, optional migration, workers, app, serve. */
runHost({
  name: 'pro-desk',
  portVariable: 'PRO_DESK_PORT',
  readConfig: readProDeskConfig,
  beforeOpen: async (config) => {
    if (config.migrateOnStart) await migrateDatabase(config.database.url);
  },
  openDb: openServiceDb,
  startWorkers: (parts, config) =>
    startWorkers({
      ...parts,
      mail: config.mail,
      customerMail: { bookingUrl: config.bookingUrl },
      webhooks: webhookOptions(config),
      hostMail: hostMailOf(config),
    }),
  createApp: (ctx) => createProDeskApp(ctx),
});
