// Ops run a business's crews with `pnpm cli crew add|list|update|remove`: the same use cases
// (and checks) as add_crew, update_crew and remove_crew; a refusal is a sentence and exit 1.
import { proDeskHarness, newPro, validBooking, type Harness } from '@frontdesk/dev-env/pro-desk';
import { cli } from './helpers';

jest.setTimeout(180_000);

let h: Harness;
beforeAll(async () => {
  h = await proDeskHarness();
});
afterAll(() => h.close());

interface CrewJson {
  crew_id: string;
  name: string;
  active: boolean;
  own_hours: boolean;
  working_hours: Record<string, string[]>;
  upcoming_jobs: number;
}

describe('crews from the CLI', () => {
  it('adds a crew with its own hours, lists, renames, deactivates, refuses what the API refuses, and removes with --reassign-to', async () => {
    const env = { DATABASE_URL: h.t.url };
    const { pro, auth } = await newPro(h, { name: 'Cli Crews Co' });

    const added = cli(['crew', 'add', '--pro', pro.id, '--name', 'Van Two', '--hours', 'mon=09:00-13:00', '--hours', 'sat=closed', '--json'], env);
    expect([added.status, added.stderr]).toEqual([0, '']);
    const van = JSON.parse(added.stdout) as CrewJson;
    expect(van).toMatchObject({ name: 'Van Two', active: true, own_hours: true, upcoming_jobs: 0 });
    expect([van.working_hours.monday, van.working_hours.saturday]).toEqual([['09:00-13:00'], []]);

    // The same name again is refused in a sentence, exit 1; a window that is no time is refused by the schema.
    const twice = cli(['crew', 'add', '--pro', pro.id, '--name', 'van two'], env);
    expect([twice.status, twice.stdout]).toEqual([1, '']);
    expect(twice.stderr).toBe('This business already has a crew named "van two"; pick another name.\n');
    const badHours = cli(['crew', 'update', '--pro', pro.id, '--crew', van.crew_id, '--hours', 'mon=nine-five'], env);
    expect(badHours.status).toBe(1);
    expect(badHours.stderr).toMatch(/^working_hours\.monday/);
    expect(cli(['crew', 'update', '--pro', pro.id, '--crew', van.crew_id, '--active', 'maybe'], env).status).toBe(2);

    const renamed = cli(['crew', 'update', '--pro', pro.id, '--crew', van.crew_id, '--name', 'Van 2', '--business-hours', '--json'], env);
    expect(renamed.status).toBe(0);
    expect(JSON.parse(renamed.stdout)).toMatchObject({ name: 'Van 2', own_hours: false });

    // A job on the van (ahead of the CLI's real clock too, on any date the suite runs: the first
    // Tuesday of January two years on), then the van takes no new jobs but keeps it.
    const tuesday = new Date(Date.UTC(new Date().getUTCFullYear() + 2, 0, 1));
    while (tuesday.getUTCDay() !== 2) tuesday.setUTCDate(tuesday.getUTCDate() + 1);
    const job = await h.api
      .post('/api/v1/book_job')
      .set(auth)
      .send(validBooking({ crew_id: van.crew_id, start: `${tuesday.toISOString().slice(0, 10)}T09:00:00-05:00` }))
      .expect(200);
    const off = cli(['crew', 'update', '--pro', pro.id, '--crew', van.crew_id, '--active', 'no'], env);
    expect(off.status).toBe(0);
    expect(off.stdout).toMatch(/^Saved Van 2 \(crew_[a-z0-9]+\): it takes no new jobs \(it still has 1 upcoming job\)/);

    const listed = cli(['crew', 'list', '--pro', pro.id], env);
    expect(listed.status).toBe(0);
    const lines = listed.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^crew_[a-z0-9]+ {2}Cli Crews Co {2}takes jobs {2}business's hours \(mon .*\) {2}0 upcoming jobs$/);
    expect(lines[1]).toContain(`${van.crew_id}  Van 2  takes no new jobs  business's hours`);
    const first = lines[0]!.split(' ')[0]!;

    // Removing the van with its job: refused in the CLI's words, nothing changed; with --reassign-to, the job moves.
    const refused = cli(['crew', 'remove', '--pro', pro.id, '--crew', van.crew_id], env);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/^Van 2 still has 1 upcoming job \(the first .*\)\. Give --reassign-to another crew to take them/);
    const unknown = cli(['crew', 'remove', '--pro', pro.id, '--crew', 'crew_nosuchcrew00'], env);
    expect([unknown.status, unknown.stderr]).toEqual([1, 'No crew with id crew_nosuchcrew00 in this business; crew list shows them.\n']);

    const removed = cli(['crew', 'remove', '--pro', pro.id, '--crew', van.crew_id, '--reassign-to', first], env);
    expect([removed.status, removed.stderr]).toEqual([0, '']);
    expect(removed.stdout).toBe(`Removed Van 2 (${van.crew_id}). Its 1 upcoming job moved to Cli Crews Co.\n`);
    const crews = (await h.api.get('/api/v1/my_business').set(auth).expect(200)).body.crews as CrewJson[];
    expect(crews.map((c) => [c.name, c.upcoming_jobs])).toEqual([['Cli Crews Co', 1]]);
    const sched = (await h.api.get('/api/v1/schedule').set(auth).expect(200)).body.jobs as { booking_id: string; crew_id: string }[];
    expect(sched.map((j) => [j.booking_id, j.crew_id])).toEqual([[job.body.booking_id, first]]);
  });
});
