import { date, pipe, string, transform, union, type ZodMiniType } from 'zod/mini';
import type { z } from './schema-types.js';

/** An open enum: the known values, plus any later string. */
export type OpenEnum<Values extends readonly string[]> = Values[number] | (string & {});

// Every schema openEnum() made, so the tests can find each open-enum field.
const OPEN_ENUMS = new WeakSet<z.ZodType>();

/** A string field typed with its known values; at runtime a plain `z.string()` (zod's fast path). */
export function openEnum<const Values extends readonly string[]>(_values?: Values): OpenEnumSchema<Values> {
  const schema = string();
  OPEN_ENUMS.add(schema);
  // Spelled out so editors show the values on hover.
  return schema as OpenEnumSchema<Values>;
}

/** What {@link openEnum} returns. */
export type OpenEnumSchema<Values extends readonly string[]> = ZodMiniType<
  Values[number] | (string & {}),
  Values[number] | (string & {})
>;

/** A request parameter typed with its documented values; any string passes at runtime. */
export function requestEnum<const Values extends readonly string[]>(
  _values?: Values,
): ZodMiniType<Values[number], Values[number]> {
  return string() as unknown as ZodMiniType<Values[number], Values[number]>;
}

/** True when `schema` was made by {@link openEnum}. */
export function isOpenEnum(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && OPEN_ENUMS.has(schema as z.ZodType);
}

/** A date-time request parameter: an ISO-8601 string or a `Date`. */
export function dateTimeInput(): ZodMiniType<string, string | Date> {
  return union([
    string(),
    pipe(
      date(),
      transform((value: Date) => value.toISOString()),
    ),
  ]);
}
