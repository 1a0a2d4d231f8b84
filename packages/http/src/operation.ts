import type { Logger } from 'pino';
import { WRITE_RETRY_TEXT } from '@frontdesk/domain';
import type { KeptAnswer } from './idempotency';

/** A JSON Schema object as OpenAPI 3.0 and MCP both read it. */
export type JsonSchema = Record<string, unknown>;

export interface ObjectSchema extends JsonSchema {
  type: 'object';
  properties: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: false;
}

/** The input of an operation that takes none. */
export const NO_INPUT: ObjectSchema = { type: 'object', properties: {}, additionalProperties: false };

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
 * the validator enforces) and the MCP tool are all generated from it.
 */
export interface Operation<P = unknown, I = unknown> {
  name: string;
  title: string;
  /** Written for an assistant: what it does, when to use it, what to confirm first. */
  description: string;
  method: 'GET' | 'POST';
  input: ObjectSchema;
  /** The answer's JSON Schema: published in /openapi.json and as the MCP tool's outputSchema. */
  output: ObjectSchema;
  /** Scope an OAuth token needs (book host); pro keys have every scope. */
  scope?: 'read' | 'write';
  /** Changes nothing (MCP readOnlyHint). */
  readOnly: boolean;
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
  handler(input: I, call: CallContext<P>): Promise<object>;
  /**
   * For a write retried with the same idempotency key: what of the answer is stored and how
   * it is given again. By default all of it, unchanged; an answer carrying a secret keeps it
   * out of storage and mints a fresh one on replay.
   */
  retry?: KeptAnswer;
}

/**
 * Ties a handler's input type to its definition without repeating it, and ends every write's
 * description with how to retry it safely (WRITE_RETRY_TEXT), in the same words on every
 * write of both hosts: REST takes the key as the Idempotency-Key header, MCP as the
 * idempotency_key argument, and an idempotent write honours one too.
 */
export function defineOperation<P, I>(op: Operation<P, I>): Operation<P, I> {
  return op.readOnly ? op : { ...op, description: `${op.description} ${WRITE_RETRY_TEXT}` };
}

/** A read: safe to repeat, allowed with the read scope. */
export const READS = { readOnly: true, idempotent: true, scope: 'read' } as const;
/** A write that only adds (a booking, a lead): needs the write scope; confirm it with the person first. */
export const WRITES = { readOnly: false, destructive: false, scope: 'write' } as const;
/** A write that replaces what was there (settings, notes, a time, a status): what it overwrote is gone. */
export const OVERWRITES = { readOnly: false, destructive: true, scope: 'write' } as const;
/** A write that takes something away (a cancellation): done once, and not undone by calling again. */
export const REMOVES = { readOnly: false, destructive: true, idempotent: false, scope: 'write' } as const;
