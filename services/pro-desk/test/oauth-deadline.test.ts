// The token endpoint's writes end with the request's deadline. A refresh that committed after
// the client was told 503 would spend the refresh token the client still holds: its retry would
// then look like a stolen token, and the whole sign-in would be revoked.
import { createBusiness } from '@frontdesk/use-cases';
import { oauthTokensFor, proHostOnPort } from '@frontdesk/dev-env/oauth';

let host: Awaited<ReturnType<typeof proHostOnPort>>;
const owner = 'owner@deadline.example';

beforeAll(async () => {
  host = await proHostOnPort({ requestDeadlineMs: 3000 });
  await createBusiness(host.t.db, { name: 'Deadline Maids', timezone: 'America/New_York', service_zips: ['10001'], owner_email: owner });
});
afterAll(() => host.close());

const token = (form: Record<string, string>) =>
  fetch(`${host.url}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: 'front-desk', ...form }),
  });

it('a refresh the database could not finish before the deadline is answered 503 and leaves the refresh token usable', async () => {
  const { refresh_token: refresh } = await oauthTokensFor(host, owner);

  // Another transaction holds every refresh token past the deadline, then lets go.
  await host.t.db.transaction().execute(async (trx) => {
    await trx.selectFrom('oauth_refresh_tokens').select('token_hash').forUpdate().execute();
    const cut = await token({ grant_type: 'refresh_token', refresh_token: refresh });
    expect(cut.status).toBe(503);
    expect(cut.headers.get('retry-after')).toBe('2');
    await new Promise((r) => setTimeout(r, 1500));
  });
  await new Promise((r) => setTimeout(r, 500));

  // The client retries as the 503 asked: the same refresh token still works, once.
  const retried = await token({ grant_type: 'refresh_token', refresh_token: refresh });
  expect([retried.status, await retried.text()]).toEqual([200, expect.stringContaining('access_token')]);
});
