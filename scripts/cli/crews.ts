import { WEEKDAYS } from '@frontdesk/domain';
import { presentCrew } from '@frontdesk/pro-desk';
import type { Crew, Pro } from '@frontdesk/db';
import { addCrew, listCrews, removeCrew, updateCrew } from '@frontdesk/use-cases';
import { UsageError, mustExist, print, withDb } from './context';
import { crewFromFlags } from './flags';
import type { Run } from './options';

/** A crew as `crew list` prints it: id, name, whether it takes jobs, whose hours, upcoming jobs. */
function crewLine(crew: Crew, pro: Pro, upcoming: number): string {
  const shown = presentCrew(crew, pro, upcoming);
  const hours = WEEKDAYS.filter((d) => (shown.working_hours[d] ?? []).length > 0)
    .map((d) => `${d.slice(0, 3)} ${shown.working_hours[d].join(',')}`)
    .join(' ');
  return `${crew.id}  ${crew.name}  ${crew.active ? 'takes jobs' : 'takes no new jobs'}  ${shown.own_hours ? 'own hours' : "business's hours"} (${hours || 'closed'})  ${upcoming} upcoming job${upcoming === 1 ? '' : 's'}`;
}

/** `crew list`: the business's crews, whose hours they work and their upcoming jobs. */
export const crewList: Run = async ({ values, json }) => {
  if (!values.pro) throw new UsageError('crew list needs --pro <pro_id>.');
  const { pro, crews, upcoming } = await withDb(async (db) => {
    const found = await mustExist(db, values.pro!);
    return { pro: found, ...(await listCrews(db, found.id, new Date())) };
  });
  print(
    json,
    { pro_id: pro.id, crews: crews.map((c) => presentCrew(c, pro, upcoming.get(c.id) ?? 0)) },
    crews.map((c) => crewLine(c, pro, upcoming.get(c.id) ?? 0)).join('\n'),
  );
};

/** `crew add`: a crew, as add_crew adds it. */
export const crewAdd: Run = async ({ values, json }) => {
  if (!values.pro || !values.name) throw new UsageError('crew add needs --pro and --name.');
  if (values.crew || values.active !== undefined || values['business-hours']) throw new UsageError('crew add takes --name and --hours only.');
  const input = crewFromFlags(values) as { name: string; working_hours?: Record<string, string[]> };
  const { pro, crew } = await withDb(async (db) => {
    await mustExist(db, values.pro!);
    return addCrew(db, values.pro!, input, new Date());
  });
  print(json, { pro_id: pro.id, ...presentCrew(crew, pro, 0) }, `Added ${crew.name} (${crew.id}) to ${pro.name}: it takes jobs from now on.`);
};

/** `crew update`: a crew changed, as update_crew changes it. */
export const crewUpdate: Run = async ({ values, json }) => {
  if (!values.pro || !values.crew) throw new UsageError('crew update needs --pro and --crew <crew_id>.');
  const change = crewFromFlags(values);
  if (Object.keys(change).length === 0) throw new UsageError('crew update needs --name, --hours, --business-hours or --active.');
  const { pro, crew, upcoming } = await withDb(async (db) => {
    await mustExist(db, values.pro!);
    return updateCrew(db, values.pro!, { ...change, crew_id: values.crew! }, new Date());
  });
  const state = crew.active ? 'takes jobs' : `takes no new jobs${upcoming ? ` (it still has ${upcoming} upcoming job${upcoming === 1 ? '' : 's'})` : ''}`;
  print(
    json,
    { pro_id: pro.id, ...presentCrew(crew, pro, upcoming) },
    `Saved ${crew.name} (${crew.id}): it ${state}, on ${crew.weekly_hours ? 'its own' : "the business's"} hours.`,
  );
};

/** `crew remove`: a crew removed, its upcoming jobs moved to another first. */
export const crewRemove: Run = async ({ values, json }) => {
  if (!values.pro || !values.crew) throw new UsageError('crew remove needs --pro and --crew <crew_id>.');
  const input = { crew_id: values.crew, ...(values['reassign-to'] ? { reassign_to: values['reassign-to'] } : {}) };
  const { pro, crew, moved } = await withDb(async (db) => {
    await mustExist(db, values.pro!);
    return removeCrew(db, values.pro!, input, new Date());
  });
  const to = moved[0]?.crew_name;
  print(
    json,
    { pro_id: pro.id, removed: true, crew_id: crew.id, name: crew.name, reassigned: moved.map((b) => b.id) },
    `Removed ${crew.name} (${crew.id}).${to ? ` Its ${moved.length} upcoming job${moved.length === 1 ? '' : 's'} moved to ${to}.` : ''}`,
  );
};
