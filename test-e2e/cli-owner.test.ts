// Ops make a business for its owner with `pnpm cli pro create --email …`: that owner signs in on
// the dashboard with the address, and `pro set --owner` hands the business to another address.
import { signInCodeSentTo } from '@frontdesk/db/testing';
import { proDeskHarness, type Harness } from '@frontdesk/dev-env/pro-desk';
import { cli } from './helpers';

jest.setTimeout(120_000);

let h: Harness;
beforeAll(async () => {
  h = await proDeskHarness();
});
afterAll(() => h.close());

const cookieFrom = (res: { headers: Record<string, unknown> }) => String((res.headers['set-cookie'] as string[])[0]).split(';')[0]!;

/** Signs in on /dashboard as a person would (the code read from the outbox); answers the dashboard page. */
async function signInOnDashboard(email: string) {
  h.clock.now = new Date(h.clock.now.getTime() + 60_000); // each code the newer one
  await h.api.post('/dashboard/code').type('form').send({ email });
  const verified = await h.api
    .post('/dashboard/verify')
    .type('form')
    .send({ email, code: await signInCodeSentTo(h.t.db, email) });
  if (verified.status !== 303) return verified;
  return h.api.get('/dashboard').set('Cookie', cookieFrom(verified));
}

describe('a business made by ops', () => {
  it('is signed in to on the dashboard by the address pro create was given, and pro set --owner hands it over', async () => {
    const env = { DATABASE_URL: h.t.url };
    const made = cli(
      ['pro', 'create', '--name', 'Ops Made Maids', '--timezone', 'America/New_York', '--zips', '10001', '--email', 'Owner@Ops-Made.example', '--json'],
      env,
    );
    expect(made.stderr).toBe('');
    expect(made.status).toBe(0);
    const pro = JSON.parse(made.stdout);
    expect(pro).toMatchObject({ name: 'Ops Made Maids', owner_email: 'owner@ops-made.example' });

    const page = await signInOnDashboard('owner@ops-made.example');
    expect(page.status).toBe(200);
    expect(page.text).toContain('Ops Made Maids');
    expect(page.text).not.toMatch(/No business has signed up/);

    // A second business for the same owner address is refused, and nothing is made.
    const twice = cli(['pro', 'create', '--name', 'Second', '--timezone', 'UTC', '--zips', '10001', '--email', 'owner@ops-made.example'], env);
    expect(twice.status).toBe(1);
    expect(twice.stderr).toMatch(/already signed up Ops Made Maids/);
    expect(await h.t.db.selectFrom('pros').select('id').where('name', '=', 'Second').execute()).toEqual([]);

    // --email on pro set changes the contact only; --owner changes who signs in.
    expect(cli(['pro', 'set', '--pro', pro.pro_id, '--email', 'desk@ops-made.example'], env).status).toBe(0);
    expect((await signInOnDashboard('owner@ops-made.example')).text).toContain('Ops Made Maids');
    const handed = cli(['pro', 'set', '--pro', pro.pro_id, '--owner', 'new.owner@ops-made.example', '--json'], env);
    expect(handed.status).toBe(0);
    expect(JSON.parse(handed.stdout)).toMatchObject({ owner_email: 'new.owner@ops-made.example', email: 'desk@ops-made.example' });
    expect((await signInOnDashboard('new.owner@ops-made.example')).text).toContain('Ops Made Maids');
    const old = await signInOnDashboard('owner@ops-made.example');
    expect(old.status).toBe(404);
    expect(old.text).toMatch(/No business has signed up/);
  });
});
