// What the property tests share (properties.test.ts, turnover-accept.test.ts): the pro host on a
// database of the file's own, a real calendar server on this machine serving the hosts'
// calendars, and the calls and reads they make of both.
import { proDeskHarnessPerFile } from '@frontdesk/dev-env/pro-desk';
import { CalendarServer, calendar, type FixtureEvent } from '@frontdesk/dev-env/ical-fixtures';

export type Json = Record<string, any>;
export type Auth = Record<string, string>;

/** The harness for one test file: call it once at the file's top level (it registers the file's hooks). */
export function propertyHarness() {
  const h = proDeskHarnessPerFile();
  const cal = new CalendarServer();
  beforeAll(() => cal.start());
  afterAll(() => cal.stop());
  let n = 0;
  const post = (auth: Auth, op: string, body: object) => h.api.post(`/api/v1/${op}`).set(auth).send(body);
  const get = (auth: Auth, op: string, query: object = {}) => h.api.get(`/api/v1/${op}`).set(auth).query(query);
  return {
    h,
    cal,
    post,
    get,
    /** An operation run with the business's key, expected to answer 200: its answer. */
    call: async (auth: Auth, op: string, body: object): Promise<Json> => (await post(auth, op, body).expect(200)).body as Json,
    /** A fresh path on the calendar server serving these events as this platform writes them. */
    feed(prodid: string, events: FixtureEvent[]) {
      const path = `/cal/${++n}.ics`;
      return { path, url: cal.serve(path, { body: calendar(prodid, events) }), set: (evs: FixtureEvent[]) => cal.serve(path, { body: calendar(prodid, evs) }) };
    },
    /** A number no other call in the file has had (fresh names and paths). */
    fresh: () => ++n,
    sync: async (auth: Auth, id: string): Promise<Json> => (await post(auth, 'sync_property', { property_id: id }).expect(200)).body as Json,
    /** One property as list_properties shows it. */
    listed: async (auth: Auth, id: string): Promise<Json> => (await get(auth, 'list_properties', { property_id: id }).expect(200)).body.properties[0] as Json,
    bookingsOf: (proId: string) => h.t.db.selectFrom('bookings').selectAll().where('pro_id', '=', proId).orderBy('starts_at').execute(),
    eventsOf: async (proId: string): Promise<Json[]> =>
      (await h.t.db.selectFrom('events').select(['kind', 'payload']).where('pro_id', '=', proId).orderBy('seq').execute()).map((e) => ({
        kind: e.kind,
        ...(e.payload as Json),
      })),
  };
}
