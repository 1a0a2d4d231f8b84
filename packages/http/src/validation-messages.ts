import { ADD_ON_NAME_PATTERN, MULTI_LINE_PATTERN, MULTI_LINE_TEXT, ONE_LINE_TEXT, SINGLE_LINE_PATTERN, WINDOW_PATTERN } from '@frontdesk/domain';

/**
 * Turns validator errors into one plain sentence per problem, naming the field and the
 * bound: "bedrooms must be at most 10." rather than "request/query/bedrooms must be <= 10".
 */
export interface ValidatorErrorItem {
  path?: string;
  message?: string;
  errorCode?: string;
}

const PATTERN_HINTS: Record<string, string> = {
  '^[0-9]{5}$': 'exactly 5 digits, like 10001',
  '^([01][0-9]|2[0-3]):[0-5][0-9]$': 'a 24-hour local time HH:MM, like 09:30',
  '^[0-9]{4}-[0-9]{2}-[0-9]{2}$': 'a date YYYY-MM-DD, like 2026-11-24',
  '^[0-9]{4}-(0[1-9]|1[0-2])$': 'a month YYYY-MM, like 2026-11',
  [WINDOW_PATTERN]: 'a working window "HH:MM-HH:MM" (24-hour), like 08:00-17:00',
  [ADD_ON_NAME_PATTERN]: 'lower case letters, digits and _, starting with a letter, like inside_fridge',
  [SINGLE_LINE_PATTERN]: ONE_LINE_TEXT,
  [MULTI_LINE_PATTERN]: MULTI_LINE_TEXT,
};

const TYPE_WORDS: Record<string, string> = {
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  string: 'text',
  array: 'a list',
  object: 'an object',
};

function fieldOf(path = ''): string {
  const stripped = path.replace(/^\/(query|body|headers|params|cookies)/, '').replace(/^\//, '');
  if (!stripped) return path.startsWith('/body') ? 'the body' : 'the request';
  return stripped.replace(/\/(\d+)(?=\/|$)/g, '[$1]').replace(/\//g, '.');
}

const lastNumber = (msg: string) => /(-?\d+(?:\.\d+)?)\D*$/.exec(msg)?.[1] ?? '';

function sentence(item: ValidatorErrorItem, patternOf: (field: string) => string | undefined): string {
  const field = fieldOf(item.path);
  const msg = item.message ?? '';
  const keyword = (item.errorCode ?? '').split('.')[0];
  switch (keyword) {
    case 'required':
      return `${field} is required.`;
    case 'additionalProperties':
      return `${field} is not a field of this operation.`;
    case 'maximum':
      return `${field} must be at most ${lastNumber(msg)}.`;
    case 'minimum':
      return `${field} must be at least ${lastNumber(msg)}.`;
    case 'exclusiveMaximum':
      return `${field} must be less than ${lastNumber(msg)}.`;
    case 'exclusiveMinimum':
      return `${field} must be more than ${lastNumber(msg)}.`;
    case 'maxLength':
      return `${field} must be at most ${lastNumber(msg)} characters long.`;
    case 'minLength': {
      const n = lastNumber(msg);
      return n === '1' ? `${field} must not be empty.` : `${field} must be at least ${n} characters long.`;
    }
    case 'minProperties':
      return `${field} must name at least ${lastNumber(msg)}.`;
    case 'maxItems':
      return `${field} may have at most ${lastNumber(msg)} items.`;
    case 'minItems':
      return `${field} must have at least ${lastNumber(msg)} items.`;
    case 'multipleOf':
      return lastNumber(msg) === '0.5' ? `${field} must be a whole or half number, like 2 or 2.5.` : `${field} must be a multiple of ${lastNumber(msg)}.`;
    case 'type': {
      const type = /must be (\w+)/.exec(msg)?.[1] ?? '';
      return `${field} must be ${TYPE_WORDS[type] ?? type}.`;
    }
    case 'enum': {
      const allowed = msg.split(': ').slice(1).join(': ');
      return `${field} must be one of: ${allowed}.`;
    }
    case 'pattern': {
      const pattern = patternOf(field) ?? /"(.*)"/.exec(msg)?.[1] ?? '';
      return `${field} must be ${PATTERN_HINTS[pattern] ?? `in the form ${pattern}`}.`;
    }
    case 'format':
      return `${field} ${msg}.`;
    default:
      if (/unknown query parameter/i.test(msg)) return `${field} is not a parameter of this operation.`;
      return `${field} ${msg.replace(/\.$/, '')}.`;
  }
}

/** One sentence for all problems found, each said once. */
export function describeValidationErrors(items: ValidatorErrorItem[], patternOf: (field: string) => string | undefined = () => undefined): string {
  return [...new Set(items.map((i) => sentence(i, patternOf)))].join(' ');
}
