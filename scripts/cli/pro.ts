import { NotFoundError, settingsChangeSchema } from '@frontdesk/domain';
import { flatten, readHostUrl } from '@frontdesk/config';
import { validateInput } from '@frontdesk/http';
import { presentBusiness } from '@frontdesk/pro-desk';
import { getPro, upcomingTimeOff } from '@frontdesk/db';
import {
  changeBusinessOwner,
  createOwnedBusiness,
  listCrews,
  presentCheck,
  recordCheck,
  rotateBusinessKey,
  updateBusinessSettings,
} from '@frontdesk/use-cases';
import { UsageError, mustExist, print, withDb } from './context';
import { settingsFromFlags } from './flags';
import type { Run } from './options';

/** `pro create`: a business with the default price list and hours, and its key, shown once. */
export const proCreate: Run = async ({ values, json }) => {
  const missing = (['name', 'timezone', 'zips'] as const).filter((k) => !values[k]);
  if (missing.length) throw new UsageError(`pro create needs ${missing.map((m) => `--${m}`).join(', ')}.`);
  const { pro, apiKey } = await withDb((db) =>
    createOwnedBusiness(db, {
      name: values.name!,
      timezone: values.timezone!,
      service_zips: values
        .zips!.split(',')
        .map((z) => z.trim())
        .filter(Boolean),
      phone: values.phone ?? null,
      email: values.email ?? null,
      owner_email: values.owner ?? values.email ?? null,
      website: values.website ?? null,
    }),
  );
  const signIn = pro.owner_email ? `\nThe owner signs in on the dashboard with ${pro.owner_email}.` : '';
  print(
    json,
    { pro_id: pro.id, name: pro.name, timezone: pro.timezone, service_zips: pro.service_zips, owner_email: pro.owner_email, api_key: apiKey },
    `Created ${pro.name} (${pro.id}).${signIn}\nAPI key (shown once, store it now): ${apiKey}`,
  );
};

/** `pro rotate-key`: every key of the business revoked, a new one shown once. */
export const proRotateKey: Run = async ({ values, json }) => {
  if (!values.pro) throw new UsageError('pro rotate-key needs --pro <pro_id>.');
  const key = await withDb(async (db) => ((await getPro(db, values.pro!)) ? rotateBusinessKey(db, values.pro!, new Date()) : null));
  if (!key) throw new NotFoundError(`No business with id ${values.pro}.`);
  print(json, { pro_id: values.pro, api_key: key }, `New API key for ${values.pro} (shown once; the old keys stop working now): ${key}`);
};

/** `pro set`: the business's settings changed as update_business changes them, and its owner. */
export const proSet: Run = async ({ values, json }) => {
  if (!values.pro) throw new UsageError('pro set needs --pro <pro_id>.');
  const flags = settingsFromFlags(values);
  const owner = values.owner === undefined ? undefined : values.owner.trim() || null;
  // --owner alone changes only the owner; anything else goes through update_business's checks.
  const change = owner !== undefined && Object.keys(flags).length === 0 ? null : validateInput({ input: settingsChangeSchema }, flags);
  const result = await withDb(async (db) => {
    await mustExist(db, values.pro!);
    if (owner !== undefined) await changeBusinessOwner(db, values.pro!, owner);
    return change
      ? updateBusinessSettings(db, values.pro!, change, new Date())
      : {
          pro: (await getPro(db, values.pro!))!,
          timeOff: await upcomingTimeOff(db, values.pro!, new Date()),
          crews: await listCrews(db, values.pro!, new Date()),
          affected: [],
        };
  });
  const affected = result.affected.map((j) => `\n  ${j.booking_id} ${j.label} ${j.customer_name}: ${j.problem}`).join('');
  const saved = [...Object.keys(change ?? {}), ...(owner === undefined ? [] : ['owner'])];
  print(
    json,
    {
      ...presentBusiness(result.pro, readHostUrl(flatten(process.env), 'booking'), result.timeOff, result.crews),
      owner_email: result.pro.owner_email,
      affected_jobs: result.affected,
    },
    `Saved ${saved.join(', ')} for ${result.pro.name} (${result.pro.id}).${affected ? `\nBooked jobs affected (none cancelled):${affected}` : ''}`,
  );
};

/** `pro check`: a website or marketplace check recorded as seen that day. */
export const proCheck: Run = async ({ values, json }) => {
  const kinds = { website: 'website_ownership', marketplace: 'marketplace_profile' } as const;
  if (!values.pro || !values.kind || !values.subject) throw new UsageError('pro check needs --pro, --kind (website or marketplace) and --subject.');
  const kind = kinds[values.kind as keyof typeof kinds];
  if (!kind) throw new UsageError('--kind must be website or marketplace.');
  const num = (v: string | undefined, name: string) => {
    if (v === undefined) return null;
    const n = Number(v);
    if (!Number.isFinite(n)) throw new UsageError(`--${name} must be a number.`);
    return n;
  };
  const check = await withDb(async (db) => {
    await mustExist(db, values.pro!);
    return recordCheck(db, {
      proId: values.pro!,
      kind,
      subject: values.subject!,
      passed: !values.failed,
      rating: num(values.rating, 'rating'),
      reviews: num(values.reviews, 'reviews'),
      checkedOn: values.date ?? new Date().toISOString().slice(0, 10),
    });
  });
  const shown = presentCheck(check);
  print(json, { pro_id: values.pro, ...shown }, `Recorded: ${shown.summary}`);
};
