import { bookAgainWeek, clientSearchTerms, clientsCursor, readClientsCursor } from '../src';

describe('clientSearchTerms', () => {
  it('looks for each word lower-cased, and a part of a phone number as its digits', () => {
    expect(clientSearchTerms('Ana GROVE')).toEqual(['ana', 'grove']);
    expect(clientSearchTerms('(212) 555-01')).toEqual(['212', '55501']);
    expect(clientSearchTerms('+1.917.555')).toEqual(['1917555']);
    expect(clientSearchTerms('ana@example.com')).toEqual(['ana@example.com']);
    expect(clientSearchTerms('12B Oak')).toEqual(['12b', 'oak']);
  });

  it('drops empty and repeated words and keeps at most six', () => {
    expect(clientSearchTerms(undefined)).toEqual([]);
    expect(clientSearchTerms('   ')).toEqual([]);
    expect(clientSearchTerms('-- ()')).toEqual(['--', '()']);
    expect(clientSearchTerms('a a b')).toEqual(['a', 'b']);
    expect(clientSearchTerms('1 2 3 4 5 6 7 8')).toHaveLength(6);
  });
});

describe('the client list cursor', () => {
  it('reads back the place it marks and refuses anything else', () => {
    const after = { name: 'ana lópez', id: 'cl_abc' };
    expect(readClientsCursor(clientsCursor(after))).toEqual(after);
    expect(() => readClientsCursor('nope')).toThrow(/cursor is not one list_clients gave/);
    expect(() => readClientsCursor(Buffer.from('[1,2]').toString('base64url'))).toThrow(/cursor/);
  });
});

describe('bookAgainWeek', () => {
  it('starts today, or on a later day asked, with no week before today', () => {
    expect(bookAgainWeek({ today: '2026-11-23' })).toEqual({ from: '2026-11-23', earlier: null, later: '2026-11-30' });
    expect(bookAgainWeek({ today: '2026-11-23', from: '2026-11-27' })).toEqual({ from: '2026-11-27', earlier: '2026-11-23', later: '2026-12-04' });
    expect(bookAgainWeek({ today: '2026-11-23', from: '2026-12-07' })).toEqual({ from: '2026-12-07', earlier: '2026-11-30', later: '2026-12-14' });
    expect(bookAgainWeek({ today: '2026-11-23', from: '2026-11-01' }).from).toBe('2026-11-23');
    expect(bookAgainWeek({ today: '2026-11-23', from: 'soon' }).from).toBe('2026-11-23');
  });
});
