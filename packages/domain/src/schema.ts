import {
  Type,
  type ArrayOptions,
  type NumberOptions,
  type ObjectOptions,
  type SchemaOptions,
  type Static,
  type StringOptions,
  type TArray,
  type TInteger,
  type TNumber,
  type TObject,
  type TOptional,
  type TProperties,
  type TSchema,
  type TString,
  type TUnsafe,
} from '@sinclair/typebox';

/**
 * The building blocks every operation's input and output schema is made of. Each is a JSON
 * Schema (what /openapi.json, the MCP tools and both validators read) that also carries its
 * TypeScript type (TypeBox), so an operation's input and answer types are inferred from the
 * one schema and never written a second time: a schema change that breaks a caller is a
 * compile error.
 *
 * Nullable fields use OpenAPI 3.0's `nullable`; the MCP tools get the same schema with
 * `type: [..., "null"]` (the http package's toolOf).
 */
export type { Static, TSchema, TObject, TProperties };

/** The TypeScript type a schema stands for. */
export type TypeOf<S extends TSchema> = Static<S>;

export const str: TString = Type.String();
export const num: TNumber = Type.Number();
export const int: TInteger = Type.Integer();
export const bool = Type.Boolean();

export const text = (o: StringOptions = {}): TString => Type.String(o);
export const number = (o: NumberOptions = {}): TNumber => Type.Number(o);
export const integer = (o: NumberOptions = {}): TInteger => Type.Integer(o);
export const boolean = (o: SchemaOptions = {}) => Type.Boolean(o);

/** The value or null. */
export const nullable = <S extends TSchema>(s: S): TUnsafe<Static<S> | null> => {
  const values = (s as { enum?: unknown[] }).enum;
  return Type.Unsafe<Static<S> | null>({ ...s, nullable: true, ...(Array.isArray(values) ? { enum: [...values, null] } : {}) });
};

export const listOf = <S extends TSchema>(items: S, o: ArrayOptions = {}): TArray<S> => Type.Array(items, o);

/** One of a fixed list of words, as `{type: 'string', enum}` (what every client reads best). */
export const oneOf = <const V extends readonly string[]>(values: V, o: SchemaOptions = {}): TUnsafe<V[number]> =>
  Type.Unsafe<V[number]>({ type: 'string', enum: [...values], ...o });

/** A map from names to one kind of value (add-ons by name, hours by weekday). */
export const mapOf = <S extends TSchema>(values: S, o: SchemaOptions = {}): TUnsafe<Record<string, Static<S>>> =>
  Type.Unsafe<Record<string, Static<S>>>({ type: 'object', additionalProperties: values, ...o });

/** A JSON value of any shape (an event's own fields). */
export const anything = Type.Unknown();

/** A schema with words for the reader (an assistant, or /docs). */
export const described = <S extends TSchema>(s: S, description: string): S => ({ ...s, description });

type WithOptional<P extends TProperties, O extends PropertyKey> = { [K in keyof P]: K extends O ? TOptional<P[K]> : P[K] };
type WithRequired<P extends TProperties, R extends PropertyKey> = { [K in keyof P]: K extends R ? P[K] : TOptional<P[K]> };

/** An object with exactly these properties, the `named` ones optional and the rest required, or the other way round. */
function objectOf(properties: TProperties, named: readonly string[], namedAre: 'optional' | 'required', o: ObjectOptions) {
  const optional = (k: string) => named.includes(k) === (namedAre === 'optional');
  const marked = Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, optional(k) ? Type.Optional(v) : v]));
  return Type.Object(marked, { additionalProperties: false, ...o });
}

/**
 * An answer: an object with exactly these properties, all required but those named optional.
 * The top level of an answer keeps to type, properties, required and additionalProperties.
 */
export const answer = <P extends TProperties, const O extends readonly (keyof P & string)[] = []>(properties: P, optional?: O, o: ObjectOptions = {}) =>
  objectOf(properties, optional ?? [], 'optional', o) as unknown as TObject<WithOptional<P, O[number]>>;

/** An input: an object with exactly these properties, all optional but those named required. */
export const fields = <P extends TProperties, const R extends readonly (keyof P & string)[] = []>(properties: P, required?: R, o: ObjectOptions = {}) =>
  objectOf(properties, required ?? [], 'required', o) as unknown as TObject<WithRequired<P, R[number]>>;

/** The input of an operation that takes none. */
export const NO_INPUT = fields({});

/** These properties of an object schema but the ones named. */
export function omitted<P extends TProperties, const K extends readonly (keyof P & string)[]>(properties: P, keys: K): Omit<P, K[number]> {
  return Object.fromEntries(Object.entries(properties).filter(([k]) => !(keys as readonly string[]).includes(k))) as Omit<P, K[number]>;
}
