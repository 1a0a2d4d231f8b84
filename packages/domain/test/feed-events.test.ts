import { EVENT_KINDS, eventAsShown, eventSchemaOf, feedEventSchema } from '../src';

describe('the updates event schemas', () => {
  it('give every kind the shared fields, its own, and nothing else', () => {
    for (const kind of EVENT_KINDS) {
      const schema = eventSchemaOf(kind);
      expect([kind, schema.additionalProperties, schema.required?.slice(0, 3), schema.required?.at(-1)]).toEqual([
        kind,
        false,
        ['seq', 'kind', 'at'],
        'message',
      ]);
      expect(JSON.parse(JSON.stringify(schema.properties.kind))).toEqual({ type: 'string', enum: [kind] });
    }
    expect(feedEventSchema.oneOf).toHaveLength(EVENT_KINDS.length);
  });
});

describe('eventAsShown', () => {
  const move = { booking_id: 'bk_1', series_id: 'ser_1', customer_name: 'Ana', message: 'Moved.' };

  it('reads a move stored with the count of later visits as and_following with the visits it moved', () => {
    expect(eventAsShown('booking.rescheduled', { ...move, and_following: 0 })).toEqual({ ...move, and_following: false, visits_moved: 1 });
    expect(eventAsShown('booking.rescheduled', { ...move, and_following: 4 })).toEqual({ ...move, and_following: true, visits_moved: 5 });
  });

  it('leaves a move stored today, and every other kind, as stored', () => {
    const today = { ...move, and_following: true, visits_moved: 3 };
    expect(eventAsShown('booking.rescheduled', today)).toBe(today);
    const cancelled = { series_id: 'ser_1', visits_cancelled: 2, and_following: 2 };
    expect(eventAsShown('series.cancelled', cancelled)).toBe(cancelled);
  });
});
