import { sql } from 'kysely';
import type { Db } from '../connect';
import { newId } from '../ids';
import { newWebhookSecret, secretHint, type Sealer } from '../secrets';
import type { Webhook } from '../tables/webhooks';

export type { Sealer } from '../secrets';

/** An endpoint as its owner sees it: its row (without secrets) and how far behind the feed it is. */
export interface WebhookState {
  id: string;
  url: string;
  kinds: string[] | null;
  paused: boolean;
  secret_hint: string;
  delivered_seq: number;
  attempts: number;
  next_attempt_at: Date;
  failing_since: Date | null;
  last_success_at: Date | null;
  last_failure_at: Date | null;
  last_failure: string | null;
  previous_until: Date | null;
  created_at: Date;
  /** Events owed (of the kinds it takes), and when the oldest of them was written. */
  behind: number;
  oldest_owed_at: Date | null;
}

const stateColumns = sql<WebhookState>`
  w.id, w.url, w.kinds, w.paused, w.secret_hint, w.delivered_seq, w.attempts, w.next_attempt_at,
  w.failing_since, w.last_success_at, w.last_failure_at, w.last_failure, w.previous_until, w.created_at,
  owed.behind, owed.oldest_owed_at`;

const owedEvents = sql`
  LATERAL (SELECT count(*)::int AS behind, min(e.created_at) AS oldest_owed_at
             FROM events e
            WHERE e.pro_id = w.pro_id AND e.seq > w.delivered_seq
              AND (w.kinds IS NULL OR e.kind = ANY (w.kinds))) owed`;

/** The business's endpoints, oldest first, with how far behind each one is. */
export async function webhooksOf(db: Db, proId: string): Promise<WebhookState[]> {
  const { rows } = await sql<WebhookState>`SELECT ${stateColumns} FROM webhooks w, ${owedEvents} WHERE w.pro_id = ${proId} ORDER BY w.created_at, w.id`.execute(
    db,
  );
  return rows;
}

/** One endpoint of the business, or undefined (another business's is not found). */
export async function webhookOf(db: Db, proId: string, id: string): Promise<WebhookState | undefined> {
  const { rows } = await sql<WebhookState>`SELECT ${stateColumns} FROM webhooks w, ${owedEvents} WHERE w.pro_id = ${proId} AND w.id = ${id}`.execute(db);
  return rows[0];
}

/** How many endpoints the business has (the caller holds the business's lock). */
export async function countWebhooks(trx: Db, proId: string): Promise<number> {
  const row = await trx
    .selectFrom('webhooks')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('pro_id', '=', proId)
    .executeTakeFirstOrThrow();
  return row.n;
}

export async function webhookUrlTaken(trx: Db, proId: string, url: string, except?: string): Promise<boolean> {
  let q = trx.selectFrom('webhooks').select('id').where('pro_id', '=', proId).where('url', '=', url);
  if (except) q = q.where('id', '<>', except);
  return (await q.executeTakeFirst()) !== undefined;
}

/**
 * Adds an endpoint owed every event after the business's head, with a new secret sealed under
 * the row's id. The secret is returned this once; the row keeps only the sealed form and a hint.
 */
export async function insertWebhook(
  trx: Db,
  w: { proId: string; url: string; kinds: string[] | null; sealer: Sealer; now: Date },
): Promise<{ id: string; secret: string }> {
  const id = newId('wh');
  const secret = newWebhookSecret();
  await trx
    .insertInto('webhooks')
    .values({
      id,
      pro_id: w.proId,
      url: w.url,
      kinds: w.kinds,
      secret_sealed: w.sealer.seal(Buffer.from(secret), id),
      previous_secret_sealed: null,
      previous_until: null,
      older_secret_sealed: null,
      older_until: null,
      secret_hint: secretHint(secret),
      delivered_seq: sql<number>`(SELECT event_seq FROM pros WHERE id = ${w.proId})`,
      failing_since: null,
      last_success_at: null,
      last_failure_at: null,
      last_failure: null,
      lease_until: null,
      lease_holder: null,
      created_at: w.now,
      next_attempt_at: w.now,
    })
    .execute();
  return { id, secret };
}

export interface WebhookChanges {
  url?: string;
  kinds?: string[] | null;
  paused?: boolean;
}

/** Changes an endpoint; any change also makes it due now (a failing one is retried at once). */
export async function updateWebhookRow(trx: Db, w: { proId: string; id: string; now: Date }, set: WebhookChanges): Promise<boolean> {
  const r = await trx
    .updateTable('webhooks')
    .set({
      ...(set.url !== undefined ? { url: set.url } : {}),
      ...(set.kinds !== undefined ? { kinds: set.kinds } : {}),
      ...(set.paused !== undefined ? { paused: set.paused } : {}),
      // A new address, other kinds or a pause end the lease of a sender mid-catch-up: its next
      // write finds the lease gone, so it sends nothing more under what it read before.
      ...(set.url !== undefined || set.kinds !== undefined || set.paused === true ? { lease_until: null, lease_holder: null } : {}),
      next_attempt_at: w.now,
    })
    .where('id', '=', w.id)
    .where('pro_id', '=', w.proId)
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/** Removes an endpoint; its url, for the answer, or undefined when it was not there. */
export async function deleteWebhook(trx: Db, proId: string, id: string): Promise<string | undefined> {
  const row = await trx.deleteFrom('webhooks').where('id', '=', id).where('pro_id', '=', proId).returning('url').executeTakeFirst();
  return row?.url;
}

/**
 * A new secret; the current one becomes the previous one, which keeps signing until `until`,
 * and a previous one still signing at `now` keeps signing until its own time is up.
 */
export async function rotateWebhookSecretRow(trx: Db, w: { proId: string; id: string; sealer: Sealer; until: Date; now: Date }): Promise<string | undefined> {
  const secret = newWebhookSecret();
  const r = await trx
    .updateTable('webhooks')
    .set({
      // Every expression reads the row as it was before this update.
      older_secret_sealed: sql<Buffer | null>`CASE WHEN previous_until > ${w.now} THEN previous_secret_sealed END`,
      older_until: sql<Date | null>`CASE WHEN previous_until > ${w.now} THEN previous_until END`,
      previous_secret_sealed: sql<Buffer>`secret_sealed`,
      previous_until: w.until,
      secret_sealed: w.sealer.seal(Buffer.from(secret), w.id),
      secret_hint: secretHint(secret),
    })
    .where('id', '=', w.id)
    .where('pro_id', '=', w.proId)
    .executeTakeFirst();
  return r.numUpdatedRows > 0n ? secret : undefined;
}

/** An endpoint's id and current sealed secret, by id alone (for an answer of its own business given again). */
export async function sealedWebhookSecretOf(db: Db, id: string) {
  return db.selectFrom('webhooks').select(['id', 'secret_sealed']).where('id', '=', id).executeTakeFirst();
}

/** An endpoint's row with its secrets, for sending to it. */
export async function webhookForSending(db: Db, proId: string, id: string): Promise<Webhook | undefined> {
  return db.selectFrom('webhooks').selectAll().where('id', '=', id).where('pro_id', '=', proId).executeTakeFirst();
}

/**
 * Claims up to `limit` endpoints that are due at `now`, not paused, not leased, and owed an
 * event, for `leaseSeconds`: rows another sender holds (locked or leased) are skipped, so two
 * replicas never send to one endpoint at once.
 */
export async function claimDueWebhooks(db: Db, c: { holder: string; now: Date; leaseSeconds: number; limit: number; except: string[] }): Promise<Webhook[]> {
  const except = c.except.length > 0 ? c.except : [''];
  const { rows } = await sql<Webhook>`
    UPDATE webhooks w SET lease_until = ${c.now}::timestamptz + make_interval(secs => ${c.leaseSeconds}), lease_holder = ${c.holder}
     WHERE w.id IN (
       SELECT d.id FROM webhooks d JOIN pros p ON p.id = d.pro_id
        WHERE NOT d.paused AND d.next_attempt_at <= ${c.now}
          AND (d.lease_until IS NULL OR d.lease_until < ${c.now})
          AND p.event_seq > d.delivered_seq
          AND d.id <> ALL (${except})
        ORDER BY d.next_attempt_at
        LIMIT ${c.limit}
        FOR UPDATE OF d SKIP LOCKED)
    RETURNING w.*`.execute(db);
  return rows;
}

/** Moves the cursor past an acknowledged (or not taken) event; false when the lease was lost. */
export async function recordDelivered(trx: Db, w: { id: string; holder: string; seq: number; at: Date | null }): Promise<boolean> {
  const r = await trx
    .updateTable('webhooks')
    .set({
      delivered_seq: sql<number>`greatest(delivered_seq, ${w.seq})`,
      ...(w.at ? { attempts: 0, failing_since: null, last_success_at: w.at, next_attempt_at: w.at } : {}),
    })
    .where('id', '=', w.id)
    .where('lease_holder', '=', w.holder)
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/** Counts a failed try and sets the next; marks the endpoint failing from `failingSince` when given. */
export async function recordFailure(
  trx: Db,
  w: { id: string; holder: string; at: Date; reason: string; nextAt: Date; failingSince: Date | null },
): Promise<boolean> {
  const r = await trx
    .updateTable('webhooks')
    .set({
      attempts: sql<number>`attempts + 1`,
      last_failure_at: w.at,
      last_failure: w.reason,
      next_attempt_at: w.nextAt,
      failing_since: sql<Date | null>`coalesce(failing_since, ${w.failingSince})`,
      lease_until: null,
      lease_holder: null,
    })
    .where('id', '=', w.id)
    .where('lease_holder', '=', w.holder)
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/** Gives an endpoint back to every sender. */
export async function releaseWebhook(db: Db, id: string, holder: string): Promise<void> {
  await db.updateTable('webhooks').set({ lease_until: null, lease_holder: null }).where('id', '=', id).where('lease_holder', '=', holder).execute();
}

/** Removes an endpoint its receiver said is gone (410); false when another sender holds it now. */
export async function deleteGoneWebhook(trx: Db, id: string, holder: string): Promise<boolean> {
  const r = await trx.deleteFrom('webhooks').where('id', '=', id).where('lease_holder', '=', holder).executeTakeFirst();
  return r.numDeletedRows > 0n;
}

/** Businesses with an endpoint that is not paused: their time-based events are written without waiting for a poll. */
export async function prosWithWebhooks(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('webhooks').select('pro_id').distinct().where('paused', '=', false).execute();
  return rows.map((r) => r.pro_id);
}

/** Every endpoint's sealed secrets, for sealing again under a new key-encryption key. */
export async function sealedWebhookSecrets(db: Db) {
  return db.selectFrom('webhooks').select(['id', 'secret_sealed', 'previous_secret_sealed', 'older_secret_sealed']).execute();
}

export async function saveSealedWebhookSecrets(db: Db, w: { id: string; secret: Buffer; previous: Buffer | null; older: Buffer | null }): Promise<void> {
  await db
    .updateTable('webhooks')
    .set({ secret_sealed: w.secret, previous_secret_sealed: w.previous, older_secret_sealed: w.older })
    .where('id', '=', w.id)
    .execute();
}
