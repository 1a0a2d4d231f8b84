// A page's own writes (here the dashboard's new key, which calls its use case directly rather
// than through an operation) end with the request's deadline, as every operation's do: when the
// page was answered 503, the write must not land later, or the business would lose its key to
// one it was never shown.
import { dashboardSession, newPro, perFile, proDeskHarness } from '@frontdesk/dev-env/pro-desk';

const h = perFile(() => proDeskHarness(undefined, { requestDeadlineMs: 3000 }));

it('a new key asked for while the business is locked past the deadline is answered 503 and never made', async () => {
  const email = 'deadline@dash.example';
  const { pro, auth } = await newPro(h, { owner_email: email });
  const { cookie, csrf } = await dashboardSession(h, email);
  const keysBefore = await h.t.db.selectFrom('pro_api_keys').select(['id', 'revoked_at']).where('pro_id', '=', pro.id).execute();

  // Another transaction holds the business's row past the deadline, then lets it go.
  await h.t.db.transaction().execute(async (trx) => {
    await trx.selectFrom('pros').select('id').where('id', '=', pro.id).forUpdate().execute();
    const res = await h.api.post('/dashboard/key').set('Cookie', cookie).type('form').send({ csrf });
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('2');
    expect(res.text).toContain('Try again in a few seconds');
    await new Promise((r) => setTimeout(r, 1500));
  });
  await new Promise((r) => setTimeout(r, 500));
  expect(await h.t.db.selectFrom('pro_api_keys').select(['id', 'revoked_at']).where('pro_id', '=', pro.id).execute()).toEqual(keysBefore);
  await h.api.get('/api/v1/my_business').set(auth).expect(200);
});
