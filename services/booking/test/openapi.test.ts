// What both hosts' /openapi.json publish about the headers every write shares.
import { bothHosts, type Hosts } from '@frontdesk/dev-env/both-hosts';

let h: Hosts;
beforeAll(async () => {
  h = await bothHosts();
});
afterAll(() => h.close());

type Json = Record<string, any>;

describe('/openapi.json on both hosts', () => {
  it.each(['pro', 'book'] as const)('declares Idempotency-Key on every write, and Idempotent-Replayed on its answer (%s host)', async (host) => {
    const doc = (await h[host].get('/openapi.json').expect(200)).body as Json;
    let writes = 0;
    for (const [path, item] of Object.entries(doc.paths as Json)) {
      for (const [method, entry] of Object.entries(item as Json)) {
        const names = ((entry as Json).parameters as Json[]).map((p) => p.name);
        const replayed = (entry as Json).responses['200'].headers?.['Idempotent-Replayed'];
        // Every write takes a key; schedule is a GET that marks notifications read, so it does too.
        const isWrite = method === 'post' || path === '/api/v1/schedule';
        expect([path, names.includes('Idempotency-Key'), replayed !== undefined]).toEqual([path, isWrite, isWrite]);
        if (isWrite) writes += 1;
      }
    }
    expect(writes).toBeGreaterThan(2);
    const key = (doc.paths['/api/v1/' + (host === 'pro' ? 'book_job' : 'book_cleaning')] as Json).post.parameters.find(
      (p: Json) => p.name === 'Idempotency-Key',
    );
    expect(key).toMatchObject({ in: 'header', required: false, schema: { type: 'string' } });
  });
});
