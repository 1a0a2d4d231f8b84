import { readIdempotencyKey } from '../src';

describe('readIdempotencyKey', () => {
  it('takes 1 to 255 printable characters, unquoting a structured-field string', () => {
    expect(readIdempotencyKey(undefined, 'K')).toBeUndefined();
    expect(readIdempotencyKey(' abc-1 ', 'K')).toBe('abc-1');
    expect(readIdempotencyKey('"abc"', 'K')).toBe('abc');
    for (const bad of ['', 'a b', 'x'.repeat(256), 'é', 42]) {
      expect(() => readIdempotencyKey(bad, 'The Idempotency-Key header')).toThrow(
        'The Idempotency-Key header must be 1 to 255 printable characters without spaces, such as a UUID.',
      );
    }
  });
});
