// update_business, add_time_off and remove_time_off (src/operations/settings.ts).
import { proDeskHarnessPerFile, newPro, validBooking } from '@frontdesk/dev-env/pro-desk';
import { listenOn, mcpClient } from '@frontdesk/dev-env/mcp-client';
import { startsOf } from '@frontdesk/domain';

const h = proDeskHarnessPerFile();

const business = async (auth: Record<string, string>) => (await h.api.get('/api/v1/my_business').set(auth).expect(200)).body;
const update = (auth: Record<string, string>, change: unknown) =>
  h.api
    .post('/api/v1/update_business')
    .set(auth)
    .send(change as object);
const startsOn = async (auth: Record<string, string>, date: string) => {
  const { body } = await h.api.get('/api/v1/open_times').query({ bedrooms: 2, bathrooms: 1, date, days: 1 }).set(auth).expect(200);
  return startsOf(body.open_times);
};
const versionOf = async (proId: string) =>
  (await h.t.db.selectFrom('pros').select('config_version').where('id', '=', proId).executeTakeFirstOrThrow()).config_version;

describe('update_business', () => {
  it('changes every kind of setting, answers the profile as my_business shows it, and my_business agrees', async () => {
    const { auth } = await newPro(h);
    const change = {
      name: 'Bright & Clean',
      phone: '(646) 555-0100',
      email: 'office@bright.example',
      website: 'https://bright.example',
      service_zips: ['10001', '10002', '10003'],
      working_hours: { saturday: [], sunday: ['10:00-12:00', '13:00-15:00'] },
      prices: {
        base: 80,
        per_bedroom: 22.5,
        minimum: 130,
        pets_fee: 0,
        crew_size: 3,
        first_visit: 'full_price',
        frequency_discounts_pct: { weekly: 25, monthly: 0 },
        clean_types: { standard: { price_multiplier: 1 }, deep: { price_multiplier: 1.75 } },
        larger_home_surcharge: { per_100_sqft_over_usual: 10 },
      },
      add_ons: [{ name: 'balcony', label: 'Balcony sweep', price: 15, minutes: 20 }],
      travel_buffer_minutes: 45,
      slot_step_minutes: 15,
      min_notice_hours: 24,
    };
    const { body } = await update(auth, change).expect(200);
    // What was sent comes back, merged into what was there: untouched days and prices stay,
    // and a discount set to 0 is dropped.
    expect(body).toMatchObject({
      ...change,
      working_hours: { monday: ['08:00-17:00'], ...change.working_hours },
      prices: { ...change.prices, per_bathroom: 25, frequency_discounts_pct: { weekly: 25, biweekly: 15 } },
      affected_jobs: [],
    });
    expect(body.prices.frequency_discounts_pct).not.toHaveProperty('monthly');
    expect(body.message).toMatch(/^Saved: name, phone, .*min_notice_hours\.$/);
    const { pipeline: _pipeline, ...shown } = await business(auth);
    const { affected_jobs: _a, message: _m, ...answered } = body;
    expect(shown).toEqual(answered);

    // What my_business shows can be written back as it is, and changes nothing.
    const version = await versionOf(body.pro_id);
    await update(auth, { prices: shown.prices, working_hours: shown.working_hours, add_ons: shown.add_ons }).expect(200);
    expect(await versionOf(body.pro_id)).toBe(version);
    // null removes an optional detail.
    expect((await update(auth, { phone: null, website: null }).expect(200)).body).toMatchObject({ phone: null, website: null });
  });

  it.each([
    [{}, /at least one field/],
    [{ name: '' }, /name must not be empty/],
    [{ name: '   ' }, /name must be 1 to 100 characters/],
    [{ name: 'x'.repeat(101) }, /name must be at most 100 characters/],
    [{ phone: 'call me' }, /phone "call me" is not a phone number/],
    [{ email: 'nope' }, /email "nope" is not an email address/],
    [{ website: 'ftp://files.example' }, /website .* is not a web address/],
    [{ service_zips: [] }, /service_zips must have at least 1 items/],
    [{ service_zips: ['1000'] }, /service_zips\[0\] must be exactly 5 digits/],
    [{ service_zips: Array.from({ length: 201 }, (_, i) => String(10000 + i)) }, /service_zips may have at most 200 items/],
    [{ service_zips: '10001' }, /service_zips must be a list/],
    [{ working_hours: { saturday: ['14:00-09:00'] } }, /working_hours\.saturday: "14:00-09:00" must end after it starts/],
    [{ working_hours: { monday: ['08:00-12:00', '11:00-15:00'] } }, /working_hours\.monday: "08:00-12:00" and "11:00-15:00" overlap/],
    [{ working_hours: { monday: ['8-5'] } }, /working_hours\.monday\[0\] must be a working window "HH:MM-HH:MM"/],
    [{ working_hours: { monday: ['08:00-24:30'] } }, /working_hours\.monday\[0\] must be a working window/],
    [{ working_hours: { funday: [] } }, /working_hours\.funday is not a field/],
    [{ working_hours: { monday: '08:00-17:00' } }, /working_hours\.monday must be a list/],
    [{ prices: { base: -1 } }, /prices\.base must be at least 0/],
    [{ prices: { base: 10000.01 } }, /prices\.base must be at most 10000/],
    [{ prices: { base: '80' } }, /prices\.base must be a number/],
    [{ prices: { base: 80.005 } }, /prices\.base must be in whole cents/],
    [{ prices: { per_half_bathroom: 20 } }, /per_half_bathroom is always half of per_bathroom/],
    [{ prices: { currency: 'EUR' } }, /prices\.currency must be one of: USD/],
    [{ prices: { clean_types: {} } }, /prices\.clean_types must name at least 1/],
    [{ prices: { clean_types: { deep: { price_multiplier: 9 } } } }, /price_multiplier must be at most 5/],
    [{ prices: { clean_types: { deep: { price_multiplier: 1.555 } } } }, /price_multiplier must have at most 2 decimals/],
    [{ prices: { clean_types: { spotless: { price_multiplier: 2 } } } }, /prices\.clean_types\.spotless is not a field/],
    [{ prices: { frequency_discounts_pct: { weekly: 95 } } }, /frequency_discounts_pct\.weekly must be at most 90/],
    [{ prices: { frequency_discounts_pct: { once: 5 } } }, /frequency_discounts_pct\.once is not a field/],
    [{ prices: { crew_size: 0 } }, /prices\.crew_size must be at least 1/],
    [{ prices: { crew_size: 1.5 } }, /prices\.crew_size must be a whole number/],
    [{ prices: { first_visit: 'free' } }, /first_visit must be one of: discounted, full_price/],
    [{ prices: { larger_home_surcharge: { usual_sqft_by_bedrooms: [600, 900] } } }, /usual_sqft_by_bedrooms must have at least 11 items/],
    [
      { prices: { larger_home_surcharge: { usual_sqft_by_bedrooms: [600, 900, 800, 1700, 2300, 2900, 3500, 4100, 4700, 5300, 5900] } } },
      /must never fall: 2 bedrooms \(800\) is below 1 \(900\)/,
    ],
    [
      {
        add_ons: [
          { name: 'fridge', label: 'A', price: 10, minutes: 10 },
          { name: 'fridge', label: 'B', price: 10, minutes: 10 },
        ],
      },
      /add_ons\[1\]\.name "fridge" is listed twice/,
    ],
    [{ add_ons: [{ name: 'Deep Fridge', label: 'A', price: 10, minutes: 10 }] }, /add_ons\[0\]\.name must be lower case letters/],
    [{ add_ons: [{ name: 'fridge', label: 'A', price: 20000, minutes: 10 }] }, /add_ons\[0\]\.price must be at most 10000/],
    [{ add_ons: [{ name: 'fridge', label: 'A', price: 10, minutes: 600 }] }, /add_ons\[0\]\.minutes must be at most 480/],
    [{ add_ons: [{ name: 'fridge', label: ' ', price: 10, minutes: 10 }] }, /add_ons\[0\]\.label must not be blank/],
    [{ add_ons: [{ name: 'fridge', price: 10, minutes: 10 }] }, /add_ons\[0\]\.label is required/],
    [{ travel_buffer_minutes: 300 }, /travel_buffer_minutes must be at most 240/],
    [{ slot_step_minutes: 7 }, /slot_step_minutes must be a multiple of 5/],
    [{ slot_step_minutes: 0 }, /slot_step_minutes must be at least 5/],
    [{ min_notice_hours: 1000 }, /min_notice_hours must be at most 336/],
    [{ min_notice_hours: 0.01 }, /min_notice_hours must be a whole number of minutes/],
    [{ min_notice_hours: true }, /min_notice_hours must be a number/],
    [{ timezone: 'America/Chicago' }, /timezone is not a field of this operation/],
    [{ name: 'Fine', prices: { base: -5 } }, /prices\.base must be at least 0/],
  ])('refuses %j with a 400 naming the field, and writes nothing', async (change, message) => {
    const { pro, auth } = await newPro(h);
    const before = await versionOf(pro.id);
    const res = await update(auth, change).expect(400);
    expect(res.body.error).toMatch(message);
    expect(await versionOf(pro.id)).toBe(before);
    expect((await business(auth)).name).toBe(pro.name);
  });

  it('closing Saturday removes Saturday starts at once; opening it again brings them back', async () => {
    const { auth } = await newPro(h);
    expect(await startsOn(auth, '2026-11-28')).toContain('2026-11-28T09:00:00-05:00');
    await update(auth, { working_hours: { saturday: [] } }).expect(200);
    expect(await startsOn(auth, '2026-11-28')).toEqual([]);
    expect(await startsOn(auth, '2026-11-27')).toContain('2026-11-27T08:00:00-05:00');
    await update(auth, { working_hours: { saturday: ['10:00-13:00'] } }).expect(200);
    expect((await startsOn(auth, '2026-11-28'))[0]).toBe('2026-11-28T10:00:00-05:00');
  });

  it('raises quote_job at once, while a booked job keeps the price it was booked at', async () => {
    const { auth } = await newPro(h);
    const before = (await h.api.get('/api/v1/quote_job').query({ bedrooms: 2, bathrooms: 1 }).set(auth).expect(200)).body.total;
    const booked = (await h.api.post('/api/v1/book_job').set(auth).send(validBooking()).expect(200)).body;
    expect(booked.total).toBe(before);
    await update(auth, { prices: { base: 100 } }).expect(200);
    const after = (await h.api.get('/api/v1/quote_job').query({ bedrooms: 2, bathrooms: 1 }).set(auth).expect(200)).body.total;
    expect(after).toBe(before + 40);
    const { body } = await h.api.get('/api/v1/schedule').set(auth).expect(200);
    expect(body.jobs.find((j: { booking_id: string }) => j.booking_id === booked.booking_id).total).toBe(before);
  });

  it('lists booked jobs now outside the hours or the ZIPs, and cancels none', async () => {
    const { auth } = await newPro(h, { service_zips: ['10001', '10002'] });
    const early = (await h.api.post('/api/v1/book_job').set(auth).send(validBooking()).expect(200)).body;
    const other = (
      await h.api
        .post('/api/v1/book_job')
        .set(auth)
        .send(validBooking({ zip: '10002', start: '2026-11-25T13:00:00-05:00' }))
        .expect(200)
    ).body;
    const { body } = await update(auth, { working_hours: { tuesday: ['12:00-17:00'] }, service_zips: ['10001'] }).expect(200);
    expect(body.affected_jobs).toEqual([
      expect.objectContaining({
        booking_id: early.booking_id,
        start: '2026-11-24T09:00:00-05:00',
        problem: expect.stringMatching(/outside the working hours/),
      }),
      expect.objectContaining({ booking_id: other.booking_id, zip: '10002', problem: expect.stringMatching(/ZIP 10002 is no longer a service ZIP/) }),
    ]);
    expect(body.message).toMatch(/2 booked jobs are affected \(nothing was cancelled\)/);
    const schedule = (await h.api.get('/api/v1/schedule').set(auth).expect(200)).body;
    expect(schedule.jobs.map((j: { status: string }) => j.status)).toEqual(['booked', 'booked']);
  });

  it("changes only the caller's own business", async () => {
    const a = await newPro(h);
    const b = await newPro(h);
    await update(a.auth, { name: 'Only A', prices: { base: 99 } }).expect(200);
    const shownB = await business(b.auth);
    expect(shownB.name).toBe(b.pro.name);
    expect(shownB.prices.base).toBe(60);
  });
});

describe('add_time_off and remove_time_off', () => {
  it('removes that day’s starts, lists a booked job inside it, and removing it restores them', async () => {
    const { auth } = await newPro(h);
    const job = (await h.api.post('/api/v1/book_job').set(auth).send(validBooking()).expect(200)).body;
    const open = await startsOn(auth, '2026-11-24');
    expect(open.length).toBeGreaterThan(0);

    const off = await h.api.post('/api/v1/add_time_off').set(auth).send({ start: '2026-11-24', end: '2026-11-24', note: 'Dentist' }).expect(200);
    expect(off.body).toMatchObject({
      time_off_id: expect.stringMatching(/^off_/),
      start: '2026-11-24T00:00:00-05:00',
      end: '2026-11-25T00:00:00-05:00',
      label: 'Tue, Nov 24, all day',
      note: 'Dentist',
      affected_jobs: [
        expect.objectContaining({ booking_id: job.booking_id, customer_name: 'Ana Lopez', problem: expect.stringMatching(/falls in this time off/) }),
      ],
    });
    expect(off.body.message).toMatch(/1 booked job is affected/);
    expect(await startsOn(auth, '2026-11-24')).toEqual([]);
    expect(await startsOn(auth, '2026-11-25')).not.toEqual([]);
    expect((await business(auth)).time_off).toEqual([
      { time_off_id: off.body.time_off_id, start: off.body.start, end: off.body.end, label: off.body.label, note: 'Dentist' },
    ]);
    // The booked job stays booked: the pro decides.
    expect((await h.api.get('/api/v1/schedule').set(auth).expect(200)).body.jobs[0].status).toBe('booked');
    const refused = await h.api
      .post('/api/v1/book_job')
      .set(auth)
      .send(validBooking({ start: '2026-11-24T14:00:00-05:00' }))
      .expect(400);
    expect(refused.body.error).toMatch(/time off/);

    const removed = await h.api.post('/api/v1/remove_time_off').set(auth).send({ time_off_id: off.body.time_off_id }).expect(200);
    expect(removed.body).toMatchObject({ removed: true, time_off_id: off.body.time_off_id });
    expect(await startsOn(auth, '2026-11-24')).toEqual(open);
    expect((await business(auth)).time_off).toEqual([]);
    await h.api.post('/api/v1/remove_time_off').set(auth).send({ time_off_id: off.body.time_off_id }).expect(404);
  });

  it('takes exact times with an offset and blocks only those hours', async () => {
    const { auth } = await newPro(h);
    const off = await h.api.post('/api/v1/add_time_off').set(auth).send({ start: '2026-11-25T08:00:00-05:00', end: '2026-11-25T12:00:00-05:00' }).expect(200);
    expect(off.body.label).toBe('Wed, Nov 25, 8:00 AM EST to Wed, Nov 25, 12:00 PM EST');
    const days = await h.api.post('/api/v1/add_time_off').set(auth).send({ start: '2026-12-24', end: '2026-12-26' }).expect(200);
    expect(days.body).toMatchObject({ label: 'Thu, Dec 24 to Sat, Dec 26, all day', end: '2026-12-27T00:00:00-05:00' });
    const starts = await startsOn(auth, '2026-11-25');
    expect(starts[0]).toBe('2026-11-25T12:00:00-05:00');
  });

  it('takes the same days off sent twice as the time off already there, not a second copy', async () => {
    const { auth } = await newPro(h);
    const days = { start: '2026-12-24', end: '2026-12-26', note: 'Holidays' };
    const first = (await h.api.post('/api/v1/add_time_off').set(auth).send(days).expect(200)).body;
    const again = (await h.api.post('/api/v1/add_time_off').set(auth).send(days).expect(200)).body;
    expect(again).toEqual(first);
    // Other days, or the same days for one crew only, are time off of their own.
    const crew = (await business(auth)).crews[0].crew_id as string;
    const crews = (
      await h.api
        .post('/api/v1/add_time_off')
        .set(auth)
        .send({ ...days, crew_id: crew })
        .expect(200)
    ).body;
    const longer = (
      await h.api
        .post('/api/v1/add_time_off')
        .set(auth)
        .send({ ...days, end: '2026-12-27' })
        .expect(200)
    ).body;
    expect(new Set([first.time_off_id, crews.time_off_id, longer.time_off_id]).size).toBe(3);
    expect((await business(auth)).time_off).toHaveLength(3);
  });

  it.each([
    [{ start: '2026-11-26', end: '2026-11-25' }, /end must be after start/],
    [{ start: '2026-11-26', end: '2027-12-31' }, /at most a year/],
    [{ start: '2026-11-01', end: '2026-11-02' }, /end is in the past/],
    [{ start: '2026-02-30', end: '2026-03-01' }, /start "2026-02-30" is not a real date/],
    [{ start: 'next friday', end: '2026-11-27' }, /start must be an ISO 8601 date-time/],
    [{ start: '2026-11-27' }, /end is required/],
    [{ start: '2026-11-27', end: '2026-11-27', note: 'x'.repeat(201) }, /note must be at most 200 characters/],
    [{ start: 20261127, end: '2026-11-27' }, /start must be text/],
  ])('refuses %j with a 400 naming the field', async (input, message) => {
    const { pro, auth } = await newPro(h);
    const res = await h.api.post('/api/v1/add_time_off').set(auth).send(input).expect(400);
    expect(res.body.error).toMatch(message);
    expect(await h.t.db.selectFrom('time_off').select('id').where('pro_id', '=', pro.id).execute()).toEqual([]);
  });

  it("cannot remove another business's time off", async () => {
    const a = await newPro(h);
    const b = await newPro(h);
    const off = (await h.api.post('/api/v1/add_time_off').set(b.auth).send({ start: '2026-11-27', end: '2026-11-27' }).expect(200)).body;
    const res = await h.api.post('/api/v1/remove_time_off').set(a.auth).send({ time_off_id: off.time_off_id }).expect(404);
    expect(res.body.error).toMatch(/No time off/);
    expect((await business(b.auth)).time_off).toHaveLength(1);
    expect((await business(a.auth)).time_off).toEqual([]);
  });
});

describe('the settings tools over MCP', () => {
  it('changes hours and prices and takes time off through the official SDK client, with the same checks as REST', async () => {
    const { auth } = await newPro(h);
    const server = await listenOn(h.app);
    const client = await mcpClient(server.url, auth);
    try {
      const { tools } = await client.listTools();
      for (const name of ['update_business', 'add_time_off', 'remove_time_off']) {
        const tool = tools.find((t) => t.name === name)!;
        expect(Object.keys(tool.inputSchema).every((k) => ['type', 'properties', 'required', 'additionalProperties'].includes(k))).toBe(true);
      }
      const phone = (tools.find((t) => t.name === 'update_business')!.inputSchema.properties as Record<string, { anyOf: unknown }>).phone;
      expect(phone!.anyOf).toEqual([{ type: 'string' }, { type: 'null' }]);

      const changed = await client.callTool({ name: 'update_business', arguments: { prices: { base: 75 }, working_hours: { saturday: [] }, phone: null } });
      expect(changed.isError).toBeFalsy();
      expect(changed.structuredContent).toMatchObject({ prices: { base: 75 }, working_hours: { saturday: [] }, phone: null });
      const off = await client.callTool({ name: 'add_time_off', arguments: { start: '2026-11-27', end: '2026-11-27' } });
      expect(off.structuredContent).toMatchObject({ start: '2026-11-27T00:00:00-05:00' });
      const wrong = await client.callTool({ name: 'update_business', arguments: { prices: { base: '75' } } });
      expect(wrong.isError).toBe(true);
      expect(JSON.stringify(wrong.content)).toMatch(/prices\.base must be a number/);
      const removed = await client.callTool({
        name: 'remove_time_off',
        arguments: { time_off_id: (off.structuredContent as { time_off_id: string }).time_off_id },
      });
      expect(removed.structuredContent).toMatchObject({ removed: true });
    } finally {
      await client.close();
      await server.close();
    }
    const shown = await business(auth);
    expect(shown).toMatchObject({ prices: { base: 75 }, working_hours: { saturday: [] }, time_off: [] });
  });
});
