import { parse as parseQuery } from 'node:querystring';
import { describeValidationErrors, inputFromQuery, paramsOf, screenInput, validateInput } from '../src';
import { readOp, writeOp } from '@frontdesk/dev-env/http-kit';

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('accepted');
};

describe('validateInput, the judge of MCP arguments and the pages’ inputs', () => {
  it('takes an input that fits its schema as it is', () => {
    const input = { name: 'Ana', count: 0, phone: null, prices: { base: 12.5 }, items: [{ n: 1 }] };
    expect(validateInput(writeOp, input)).toBe(input);
  });

  it.each([
    [{ count: 1 }, 'name is required.'],
    [{ name: 'Ana', count: true }, 'count must be a whole number.'],
    [{ name: 'Ana', count: null }, 'count must be a whole number.'],
    [{ name: 'Ana', count: '2' }, 'count must be a whole number.'],
    [{ name: 'Ana', count: -1 }, 'count must be at least 0.'],
    [{ name: '' }, 'name must not be empty.'],
    [{ name: 'Anastasia' }, 'name must be at most 5 characters long.'],
    [{ name: 'Ana', size: 'huge' }, 'size must be one of: small, large.'],
    [{ name: 'Ana', items: [{ n: 1 }, { n: 2 }, { n: 3 }] }, 'items may have at most 2 items.'],
    [{ name: 'Ana', items: [{}] }, 'items[0].n is required.'],
    [{ name: 'Ana', prices: { base: 1, tax: 2 } }, 'prices.tax is not a field of this operation.'],
    [{ name: 'Ana', colour: 'red' }, 'colour is not a field of this operation.'],
  ])('refuses %j: %s', (input, sentence) => {
    expect(refusal(() => validateInput(writeOp, input))).toBe(sentence);
  });

  it('explains a pattern by what it stands for', () => {
    expect(refusal(() => validateInput(readOp, { count: 1, zip: '1234' }))).toBe('zip must be exactly 5 digits, like 10001.');
  });
});

describe('screenInput: what no schema keyword catches', () => {
  it.each([
    [null, "The input must be a JSON object of the operation's fields."],
    [[1], "The input must be a JSON object of the operation's fields."],
    ['text', "The input must be a JSON object of the operation's fields."],
    [{ name: 'a\u0000b' }, 'name contains a character that cannot be stored (a NUL byte or a broken UTF-16 surrogate).'],
    [{ name: 'x\ud800' }, 'name contains a character that cannot be stored (a NUL byte or a broken UTF-16 surrogate).'],
    [{ name: '\udc00x' }, 'name contains a character that cannot be stored (a NUL byte or a broken UTF-16 surrogate).'],
    [{ items: [{ n: 1 }, { n: Infinity }] }, 'items[1].n must be a finite number.'],
    [{ count: NaN }, 'count must be a finite number.'],
    [{ prices: { 'a\u0000': 1 } }, 'prices has a field name that cannot be stored.'],
  ])('refuses %j', (input, sentence) => {
    expect(refusal(() => screenInput(input))).toBe(sentence);
  });

  it('walks without the call stack: deep nesting is a sentence, the first hostile place in order is named', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i += 1) deep = [deep];
    expect(refusal(() => screenInput({ items: deep }))).toBe('The input is nested too deeply; no operation takes more than 32 levels of lists and objects.');
    let fits: unknown = 'ok';
    for (let i = 0; i < 31; i += 1) fits = [fits];
    expect(() => screenInput({ items: fits })).not.toThrow();
    expect(refusal(() => screenInput({ items: [fits] }))).toMatch(/nested too deeply/);
    expect(refusal(() => screenInput({ a: 'x\u0000', ['b\u0000']: 1 }))).toBe(
      'a contains a character that cannot be stored (a NUL byte or a broken UTF-16 surrogate).',
    );
    expect(refusal(() => screenInput({ ['b\u0000']: 1, a: 'x\u0000' }))).toBe('the input has a field name that cannot be stored.');
    expect(refusal(() => screenInput({ a: [1, { b: [Infinity] }], c: NaN }))).toBe('a[1].b[0] must be a finite number.');
  });

  it('lets a whole surrogate pair through (an emoji is text PostgreSQL stores)', () => {
    expect(() => screenInput({ name: 'Zoë 😀' })).not.toThrow();
  });
});

describe('inputFromQuery: a query read strictly by its schema', () => {
  const read = (query: string) => inputFromQuery(readOp, parseQuery(query));

  it('types a value only when it reads cleanly as its schema’s type', () => {
    expect(read('count=3&ratio=2.5&flag=true&nums=1,2')).toEqual({ count: 3, ratio: 2.5, flag: true, nums: [1, 2] });
    for (const text of ['1e3', '0x10', ' 2', '2.', '+2', 'Infinity', 'NaN', '']) expect(read(`count=${encodeURIComponent(text)}`)).toEqual({ count: text });
    expect(read('flag=TRUE')).toEqual({ flag: 'TRUE' });
    expect(read(`count=${'9'.repeat(400)}`)).toEqual({ count: '9'.repeat(400) });
  });

  it('splits lists on commas, trims their items, and reads an empty list as none', () => {
    expect(read('tags=oven, fridge ,windows')).toEqual({ tags: ['oven', 'fridge', 'windows'] });
    expect(read('tags=')).toEqual({ tags: [] });
    expect(read('nums=1,x')).toEqual({ nums: [1, 'x'] });
  });

  it.each([
    ['colour=red', 'colour is not a parameter of this operation.'],
    ['count=1&count=2', 'count is given more than once; give it once (lists are comma-separated).'],
    ['tags[a]=1', 'tags[a] is not a parameter of this operation.'],
    ['__proto__=1', '__proto__ is not a parameter of this operation.'],
    ['constructor=1', 'constructor is not a parameter of this operation.'],
  ])('refuses %s', (query, sentence) => {
    expect(refusal(() => read(query))).toBe(sentence);
  });
});

describe('the validators’ errors in plain words', () => {
  it('names the field and the bound from the keyword, the place and the rule’s values, each problem once', () => {
    const problems = [
      { keyword: 'maximum', path: '/query/count', params: { comparison: '<=', limit: 10 } },
      { keyword: 'minimum', path: '/body/prices/base', params: { limit: 0 } },
      { keyword: 'type', path: '/body/items/1/n', params: { type: 'integer' } },
      { keyword: 'type', path: '/body/items/1/n', params: { type: 'integer' } },
      { keyword: 'type', path: '/body', params: { type: 'object' } },
    ];
    expect(describeValidationErrors(problems)).toBe(
      'count must be at most 10. prices.base must be at least 0. items[1].n must be a whole number. the body must be an object.',
    );
  });

  it('reads a rule’s values from its schema as Ajv’s params name them', () => {
    const schema = { type: 'string', minLength: 1, maxLength: 5, enum: ['a', 'b'], pattern: '^[0-9]{5}$', multipleOf: 0.5 };
    const say = (keyword: string) => describeValidationErrors([{ keyword, path: '/body/zip', params: paramsOf(keyword, schema) }]);
    expect(['minLength', 'maxLength', 'enum', 'pattern', 'multipleOf', 'type', 'required'].map(say)).toEqual([
      'zip must not be empty.',
      'zip must be at most 5 characters long.',
      'zip must be one of: a, b.',
      'zip must be exactly 5 digits, like 10001.',
      'zip must be a whole or half number, like 2 or 2.5.',
      'zip must be text.',
      'zip is required.',
    ]);
  });
});
