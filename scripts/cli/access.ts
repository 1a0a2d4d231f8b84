import { flatten, readKeyEncryptionKeys, withLocalKeyEncryptionKey } from '@frontdesk/config';
import { keySealerFrom, rotateSigningKey } from '@frontdesk/oauth';
import { migrateToLatest } from '@frontdesk/db';
import { issuePersonalKey, loadDemoBusiness, resealWebhookSecrets } from '@frontdesk/use-cases';
import { projectRoot } from '../project-root';
import { UsageError, print, withDb } from './context';
import type { Run } from './options';

/** `migrate`: the schema brought to the latest migration. */
export const migrate: Run = async ({ json }) => {
  const applied = await withDb((db) => migrateToLatest(db));
  print(json, { applied }, applied.length ? `Applied: ${applied.join(', ')}` : 'The schema is up to date.');
};

/** `key create`: a customer's personal key for the booking service, shown once. */
export const keyCreate: Run = async ({ values, json }) => {
  if (!values.email) throw new UsageError('key create needs --email <email>.');
  const { key, record } = await withDb((db) => issuePersonalKey(db, values.email!));
  print(json, { key, email: record.email, key_id: record.id }, `Personal key for ${record.email} (shown once, store it now): ${key}`);
};

/** `oauth rotate-key`: a new signing key, and every webhook secret sealed again with the current key. */
export const oauthRotateKey: Run = async ({ json }) => {
  // Sealed with KEY_ENCRYPTION_KEY, or for a local run the key in the data folder, as pnpm start uses it.
  const sealer = keySealerFrom(readKeyEncryptionKeys(flatten(withLocalKeyEncryptionKey(process.env, projectRoot()))));
  const { kid, webhooks } = await withDb(async (db) => ({
    kid: await rotateSigningKey(db, sealer, new Date()),
    webhooks: await resealWebhookSecrets(db, sealer),
  }));
  print(
    json,
    { kid, webhook_secrets_resealed: webhooks },
    `New signing key ${kid}. Replicas pick it up within a minute; tokens signed with the old key stay valid until they expire.\n${webhooks} webhook secret${webhooks === 1 ? '' : 's'} sealed again with the current key-encryption key.`,
  );
};

/** `demo`: the demo business loaded (or given a fresh key) and its key. */
export const demo: Run = async ({ json }) => {
  const { pro, apiKey, created } = await withDb((db) => loadDemoBusiness(db, new Date()));
  print(
    json,
    { pro_id: pro.id, name: pro.name, api_key: apiKey, created },
    `${created ? 'Loaded' : 'Refreshed the key of'} ${pro.name} (${pro.id}).\nAPI key: ${apiKey}`,
  );
};
