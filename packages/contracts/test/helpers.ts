import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { contractSchemas } from '../src/index.js';

/** Validate like the services: against the schema, resolving `$ref`s through contractSchemas. */
export const check = (schema: TSchema, value: unknown): boolean =>
  Value.Check(schema, contractSchemas, value);

/** Mimic Fastify on a query string: every value a string, converted, then defaults applied. */
export const parseQuery = (schema: TSchema, query: Record<string, string>): unknown => {
  const converted = Value.Convert(schema, contractSchemas, { ...query });
  return Value.Default(schema, contractSchemas, converted);
};

export const withDefaults = (schema: TSchema, value: unknown): unknown =>
  Value.Default(schema, contractSchemas, structuredClone(value));

/** A copy of `value` without `key`. */
export const without = <T extends object>(value: T, key: keyof T): Partial<T> => {
  const copy = { ...value };
  delete copy[key];
  return copy;
};
