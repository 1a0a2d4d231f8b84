import {
  CLIENTS_PAGE,
  CLIENT_NOTES_MAX,
  LEAD_SOURCES,
  answer,
  bool,
  clientLineSchema,
  clientSchema,
  clientVisitSchema,
  fields,
  idSchema,
  int,
  integer,
  leadSchema,
  listOf,
  multiLine,
  nullable,
  num,
  oneOf,
  singleLine,
  str,
} from '@frontdesk/domain';
import { clientHistory, listClients, updateClientNotes } from '@frontdesk/use-cases';
import { OVERWRITES, READS } from '@frontdesk/http';
import type { AppContext } from '../context';
import { defineOperation } from './define';

export const listClientsOperation = (ctx: AppContext) =>
  defineOperation({
    name: 'list_clients',
    tag: 'clients',
    title: 'Client list',
    description:
      "Everyone who booked or was a direct lead with a contact (never a platform lead's customer), by name; search by part of name, phone, email or address.",
    method: 'GET',
    input: fields({
      search: singleLine({ maxLength: 200, description: 'Words each client must contain.' }),
      cursor: singleLine({ maxLength: 500, description: "The last answer's next_cursor." }),
      limit: integer({ minimum: 1, maximum: CLIENTS_PAGE.max, description: `Default ${CLIENTS_PAGE.default}.` }),
    }),
    output: answer({ count: int, clients: listOf(clientLineSchema), next_cursor: nullable(str) }),
    ...READS,
    async handler(input, { principal: pro, now }) {
      return listClients(ctx.db, pro, input, { now, changes: ctx.changes });
    },
  });

export const clientHistoryOperation = (ctx: AppContext) =>
  defineOperation({
    name: 'client_history',
    tag: 'clients',
    title: "A client's history",
    description: "A client's upcoming and past visits, recurring plans, leads, total booked and the pro's notes.",
    method: 'GET',
    input: fields({ client_id: idSchema() }, ['client_id']),
    output: answer({
      client: clientSchema,
      total_booked: num,
      booked_visits: int,
      upcoming: listOf(clientVisitSchema),
      past: listOf(clientVisitSchema),
      plans: listOf(
        answer({ series_id: str, frequency: oneOf(['weekly', 'biweekly', 'monthly']), ended: bool, next_visit: nullable(str), crew_name: nullable(str) }),
      ),
      leads: listOf(answer({ lead_id: str, source: oneOf(LEAD_SOURCES), status: leadSchema.properties.status, quote_total: nullable(num), logged_at: str })),
    }),
    ...READS,
    async handler(input, { principal: pro, now }) {
      return clientHistory(ctx.db, pro, input.client_id, now);
    },
  });

export const updateClientNotesOperation = (ctx: AppContext) =>
  defineOperation({
    name: 'update_client_notes',
    tag: 'clients',
    title: 'Keep notes about a client',
    description: "Replaces the pro's notes about a client (empty clears them); never shown to the customer. Confirm first.",
    method: 'POST',
    input: fields({ client_id: idSchema(), notes: multiLine({ maxLength: CLIENT_NOTES_MAX }) }, ['client_id', 'notes']),
    output: answer({ client_id: str, notes: nullable(str), message: str }),
    ...OVERWRITES,
    idempotent: true,
    async handler(input, { principal: pro, now }) {
      return updateClientNotes(ctx.db, pro, input, now);
    },
  });
