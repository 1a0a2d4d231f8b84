import type { Logger } from 'pino';
import type { Static, TObject } from '@sinclair/typebox';
import { WRITE_RETRY_TEXT } from '@frontdesk/domain';
import type { KeptAnswer } from './idempotency';

/** A JSON Schema object as OpenAPI 3.0 and MCP both read it. */
export type JsonSchema = Record<string, unknown>;

/** An operation's input or output: an object schema that also carries its TypeScript type (the domain's schema blocks). */
export type ObjectSchema = TObject;

/** What a handler knows about the call besides its input, whichever transport carried it. */
export interface CallContext<P> {
  principal: P;
  /** The assistant's name from X-Client-Name, if it sent one. */
  clientName: string | null;
  requestId: string;
  /** The service clock, read once per call. */
  now: Date;
  log: Logger;
}

/**
 * One definition per operation: the REST route `/api/v1/<name>`, its OpenAPI entry (which
 * the validator enforces) and the MCP tool are all generated from it. Its input and answer
 * types are its schemas' types: the handler is checked against both.
 */
export interface Operation<P = unknown, In extends ObjectSchema = ObjectSchema, Out extends ObjectSchema = ObjectSchema, N extends string = string> {
  name: N;
  title: string;
  /** Written for an assistant: what it does, when to use it, what to confirm first. */
  description: string;
  /** The area of the host it belongs to: its group in /openapi.json and /docs. */
  tag: string;
  method: 'GET' | 'POST';
  input: In;
  /** The answer's JSON Schema: published in /openapi.json and as the MCP tool's outputSchema. */
  output: Out;
  /** Scope an OAuth token needs (book host); pro keys have every scope. */
  scope?: 'read' | 'write';
  /** Changes nothing (MCP readOnlyHint). */
  readOnly: boolean;
  /**
   * Where a read's handler reads: 'replica' for an answer that may be a few seconds stale
   * (searches, open times, quotes), which then reads a streaming replica less than the lag
   * bound behind when DATABASE_READ_URL names one. Unset: the primary, as every write, every
   * read right after a write (a booking's status) and every signed-in page needs. Ignored on a write.
   */
  reads?: 'replica';
  /**
   * A write that may take away or overwrite what was there (MCP destructiveHint); false means
   * it only adds. Unset on a write reads as true, the MCP default. Meaningless on a read.
   */
  destructive?: boolean;
  /** Calling again with the same input changes nothing more (MCP idempotentHint). */
  idempotent?: boolean;
  /**
   * Reaches people or systems outside the business's own records, such as a mail to a
   * customer (MCP openWorldHint). Unset reads as false: our tools act on our own database.
   */
  openWorld?: boolean;
  /**
   * The fields its MCP tool lists, when not all of them: for a change to a record another tool
   * creates, whose description names that tool's fields as taken too. Every field is still
   * judged, on MCP as on REST, and OpenAPI lists them all. Keeps tools/list within its budget.
   */
  toolFields?: readonly string[];
  /**
   * A rule about this operation an assistant is told when it connects (MCP `instructions`):
   * what to confirm first, what to do after it. The host's own rules come first.
   */
  instruction?: string;
  handler(input: Static<In>, call: CallContext<P>): Promise<Static<Out>>;
  /**
   * For a write retried with the same idempotency key: what of the answer is stored and how
   * it is given again. By default all of it, unchanged; an answer carrying a secret keeps it
   * out of storage and mints a fresh one on replay.
   */
  retry?: KeptAnswer;
}

/** Any operation of a host whose callers are `P`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyOperation<P = any> = Operation<P, any, any, string>;

/** What an operation takes, as its input schema says. */
export type InputOf<O> = O extends { input: infer In extends ObjectSchema } ? Static<In> : never;

/** What an operation answers, as its output schema says. */
export type AnswerOf<O> = O extends { output: infer Out extends ObjectSchema } ? Static<Out> : never;

/**
 * The definer of a host's operations, whose callers are `P`: each definition's name, input
 * and answer types are inferred from it. Ends every write's description with how to retry it
 * safely (WRITE_RETRY_TEXT), in the same words on every write of both hosts: REST takes the
 * key as the Idempotency-Key header, MCP as the idempotency_key argument, and an idempotent
 * write honours one too.
 */
export const operationsFor =
  <P, Tag extends string = string>() =>
  <const N extends string, In extends ObjectSchema, Out extends ObjectSchema>(op: Operation<P, In, Out, N> & { tag: Tag }): Operation<P, In, Out, N> =>
    op.readOnly ? op : { ...op, description: `${op.description} ${WRITE_RETRY_TEXT}` };

/**
 * A host's operations by name, from its one list: the name is written once, on the
 * definition, and each entry keeps its own input and answer types.
 */
export function byName<const T extends readonly AnyOperation[]>(ops: T): { [O in T[number] as O['name']]: O } {
  return Object.fromEntries(ops.map((op) => [op.name, op])) as { [O in T[number] as O['name']]: O };
}

/** A host's set as the registry's list, in the set's order: REST routes, /openapi.json and MCP tools come from it. */
export const operationList = <P>(set: Record<string, Operation<P>>): Operation<P>[] => Object.values(set);

/**
 * What an assistant is told when it connects to a host: what the host is, the host's rules,
 * then each operation's own rule in the registry's order, numbered, and a closing line.
 */
export function instructionsFor(o: { intro: string; rules: readonly string[]; operations: readonly AnyOperation[]; closing: string }): string {
  const rules = [...o.rules, ...o.operations.flatMap((op) => (op.instruction ? [op.instruction] : []))];
  return [o.intro, 'Rules you must follow:', ...rules.map((r, i) => `${i + 1}. ${r}`), o.closing].join('\n');
}

/** A read: safe to repeat, allowed with the read scope. */
export const READS = { readOnly: true, idempotent: true, scope: 'read' } as const;
/** A read that may answer a few seconds stale, so it may read a replica (see `reads`). */
export const STALE_READS = { ...READS, reads: 'replica' } as const;
/** A write that only adds (a booking, a lead): needs the write scope; confirm it with the person first. */
export const WRITES = { readOnly: false, destructive: false, scope: 'write' } as const;
/** A write that replaces what was there (settings, notes, a time, a status): what it overwrote is gone. */
export const OVERWRITES = { readOnly: false, destructive: true, scope: 'write' } as const;
/** A write that takes something away (a cancellation): done once, and not undone by calling again. */
export const REMOVES = { readOnly: false, destructive: true, idempotent: false, scope: 'write' } as const;
