import { jsonBody, keptAnswer } from '../src';

describe('a kept answer', () => {
  it('is written as the JSON of the answer, made once', () => {
    const answer = keptAnswer({ zip: '30303', cleaners: [{ name: 'Ana', total: 120.5, website: null }], note: 'é ✓' });
    const first = jsonBody(answer);
    expect(first).toBe(JSON.stringify(answer));
    expect(jsonBody(answer)).toBe(first);
  });

  it('is frozen all the way down, so no caller changes what the next one is sent', () => {
    const answer = keptAnswer({ cleaners: [{ times: [{ start: 'a' }] }] });
    expect(() => {
      (answer.cleaners[0]!.times as { start: string }[]).push({ start: 'b' });
    }).toThrow(TypeError);
    expect(() => {
      (answer.cleaners[0]!.times[0] as { start: string }).start = 'c';
    }).toThrow(TypeError);
    expect(jsonBody(answer)).toBe('{"cleaners":[{"times":[{"start":"a"}]}]}');
  });

  it('leaves any other answer as res.json would write it, made anew each time', () => {
    const answer = { count: 1 };
    expect(jsonBody(answer)).toBe('{"count":1}');
    answer.count = 2;
    expect(jsonBody(answer)).toBe('{"count":2}');
  });
});
