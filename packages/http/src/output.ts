import Ajv, { type ValidateFunction } from 'ajv';
import type { JsonSchema, ObjectSchema, Operation } from './operation';

/**
 * Answers checked against the schema their operation declares, on every transport (REST, MCP
 * and the pages), when the service's caller turns it on (tests do, FRONT_DESK_CHECK_ANSWERS=1):
 * the published contract and what the code returns cannot drift apart. A mismatch is a server
 * error, logged, never a silently different answer.
 */
const ajv = new Ajv({ allErrors: true, strict: false });
const compiled = new WeakMap<ObjectSchema, ValidateFunction>();

export class AnswerSchemaError extends Error {}

/** Throws if an answer does not match its operation's output schema. */
export function checkAnswer(op: Operation<unknown>, answer: unknown): void {
  let validate = compiled.get(op.output);
  if (!validate) compiled.set(op.output, (validate = ajv.compile(op.output)));
  if (!validate(answer)) {
    const problems = (validate.errors ?? []).map(
      (e) => `${e.instancePath || '/'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}`,
    );
    throw new AnswerSchemaError(`The answer of ${op.name} does not match its output schema: ${problems.join('; ')}`);
  }
}

/**
 * The same schema in plain JSON Schema, for MCP clients: OpenAPI 3.0's `nullable: true`
 * becomes `type: [T, "null"]` (an enum gains null too).
 */
export function toJsonSchema(schema: JsonSchema): JsonSchema {
  if (Array.isArray(schema)) return schema.map((s) => toJsonSchema(s as JsonSchema)) as unknown as JsonSchema;
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'nullable') continue;
    out[key] = key === 'enum' || typeof value !== 'object' || value === null ? value : toJsonSchema(value as JsonSchema);
  }
  if (schema.nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...(out.enum as unknown[]), null];
  }
  return out;
}
