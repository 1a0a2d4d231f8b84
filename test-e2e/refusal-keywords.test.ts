import { CLIENT_NAME_PARAMETER, KEYWORDS_WITH_SENTENCES, type JsonSchema } from '@frontdesk/http';
import { ALL_OPERATIONS } from '@frontdesk/dev-env/pro-desk';

// A refusal is made from the keyword that failed (packages/http/src/validation-messages.ts):
// every keyword an operation's input is judged by has its own sentence, or is one that only
// shapes or describes the schema and fails as no keyword of its own.
const SHAPING = new Set(['properties', 'items', 'description', 'default', 'nullable', 'examples', 'title']);

/** Every keyword a schema and the schemas inside it use, as "keyword (where)". */
function keywordsOf(schema: JsonSchema, where: string): string[] {
  return Object.entries(schema).flatMap(([keyword, value]) => {
    const inner =
      keyword === 'properties'
        ? Object.entries(value as Record<string, JsonSchema>).flatMap(([name, s]) => keywordsOf(s, `${where}.${name}`))
        : (keyword === 'items' || keyword === 'additionalProperties') && typeof value === 'object'
          ? keywordsOf(value as JsonSchema, where)
          : [];
    return [`${keyword} (${where})`, ...inner];
  });
}

describe('refusal sentences', () => {
  it('are written for every keyword an operation’s input or a header is judged by', () => {
    const judged = [
      ...[...ALL_OPERATIONS.pro, ...ALL_OPERATIONS.book].map((op) => [op.name, op.input as JsonSchema] as const),
      ['X-Client-Name', CLIENT_NAME_PARAMETER.schema as JsonSchema] as const,
    ];
    const unsaid = judged
      .flatMap(([name, schema]) => keywordsOf(schema, name))
      .filter((k) => !SHAPING.has(k.split(' ')[0]!) && !KEYWORDS_WITH_SENTENCES.has(k.split(' ')[0]!));
    expect(unsaid).toEqual([]);
  });
});
