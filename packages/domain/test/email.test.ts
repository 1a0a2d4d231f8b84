import { isEmail, normalizeEmail } from '../src';

// An email address as the contract takes it: the unstorable and the invisible are not part of one.
describe('an email address', () => {
  it('takes ordinary and international addresses', () => {
    for (const email of ['ana@example.com', 'a.b+tag@sub.example.co', 'ñandú@ejemplo.es', '用户@例子.中国'])
      expect([email, isEmail(email)]).toEqual([email, true]);
  });

  it('refuses control and format characters: NUL, BEL, a right-to-left override, a zero-width space, a lone surrogate', () => {
    for (const email of ['a\u0000@example.com', 'a@exa\u0007mple.com', 'a\u202e@example.com', 'a\u200b@example.com', 'a\ud800@example.com']) {
      expect([JSON.stringify(email), isEmail(email)]).toEqual([JSON.stringify(email), false]);
    }
    expect(() => normalizeEmail('nul\u0000@example.com')).toThrow(/is not an email address/);
  });
});
