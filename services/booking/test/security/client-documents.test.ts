// A client metadata document is fetched for whoever names its URL: the per-address authorize
// budget is charged before any fetch, at /authorize and at /token alike.
import request from 'supertest';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { localhostCertificate } from '@frontdesk/dev-env/local-site';
import { authorizeQuery, bookReplicaApp, bothHostsPerFile, TEST_RATE_LIMITS } from '@frontdesk/dev-env/both-hosts';

const h = bothHostsPerFile();
let site: Server;
let base = '';
let ca = '';
/** GETs the assistant's site received, whatever their path. */
let fetched = 0;

beforeAll(async () => {
  const pems = await localhostCertificate();
  ca = pems.cert;
  site = createServer(pems, (req, res) => {
    fetched += 1;
    const path = (req.url ?? '').split('?')[0]!;
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ client_id: `${base}${path}`, client_name: 'Doc Assistant', redirect_uris: ['http://127.0.0.1:9/callback'] }));
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  base = `https://localhost:${(site.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => site.close(() => resolve())));

const bookHost = (authorizePerIp: number) =>
  request(
    bookReplicaApp(h, {
      rateLimits: { ...TEST_RATE_LIMITS, authorizePerIp: { limit: authorizePerIp, windowSeconds: 3600 } },
      clientDocuments: { allowPrivateAddresses: true, ca },
    }),
  );

describe('client metadata documents and the authorize budget', () => {
  it('charges the budget before fetching: past it, neither /authorize nor /token fetches a document', async () => {
    const app = bookHost(2);
    const authorize = (path: string) =>
      app.get('/authorize').query(authorizeQuery({ client_id: `${base}${path}`, redirect_uri: 'http://127.0.0.1:9/callback' }));
    const before = fetched;
    // Both within the budget: the documents are fetched and the sign-in starts.
    await authorize('/one.json').expect(200);
    await authorize('/two.json').expect(200);
    expect(fetched - before).toBe(2);
    for (const path of ['/three.json', '/four.json', '/five.json']) {
      const refused = await authorize(path).expect(429);
      expect(refused.text).toMatch(/Too many sign-ins started/);
    }
    for (const path of ['/six.json', '/seven.json']) {
      const refused = await app
        .post('/token')
        .type('form')
        .send({ grant_type: 'authorization_code', client_id: `${base}${path}`, code: 'x' })
        .expect(429);
      expect(refused.body.error).toMatch(/Too many sign-ins started/);
    }
    expect(fetched - before).toBe(2);
  });
});
