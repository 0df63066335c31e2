import { date, pipe, string, transform, union, type ZodMiniType } from 'zod/mini';
import type { z } from './schema-types.js';

/** An open enum: the known values, plus any string a later API version may add. */
export type OpenEnum<Values extends readonly string[]> = Values[number] | (string & {});

// Every schema openEnum() made. At runtime one is a plain z.string(), so only this tells them apart: the
// generated-schema tests use it to find every open-enum field and demand an unknown-value test for each.
const OPEN_ENUMS = new WeakSet<z.ZodType>();

/**
 * A string field whose known values are `values`, accepting any other string too (reference section 9:
 * enum values are added within /v1). At runtime it is a plain `z.string()`: a union of literals plus a
 * string fallback would accept exactly the same inputs, but would leave zod's JIT object parser for a
 * slower path on every response. The generated schemas pass the list as a type argument only
 * (`openEnum<typeof LIST>()`), so no schema chunk imports the lists at run time.
 */
export function openEnum<const Values extends readonly string[]>(_values?: Values): OpenEnumSchema<Values> {
  const schema = string();
  OPEN_ENUMS.add(schema);
  // The union is spelled out rather than `OpenEnum<Values>` so that editors show the values on hover.
  return schema as OpenEnumSchema<Values>;
}

/** What {@link openEnum} returns: a string schema typed with the known values and any other string. */
export type OpenEnumSchema<Values extends readonly string[]> = ZodMiniType<
  Values[number] | (string & {}),
  Values[number] | (string & {})
>;

/**
 * A request parameter whose documented values are `values`: typed with those values only, so a typo does
 * not compile, yet any string passes at runtime, so `newerValue('...')` can send a value newer than the SDK.
 */
export function requestEnum<const Values extends readonly string[]>(
  _values?: Values,
): ZodMiniType<Values[number], Values[number]> {
  return string() as unknown as ZodMiniType<Values[number], Values[number]>;
}

/** True when `schema` was made by {@link openEnum}. */
export function isOpenEnum(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && OPEN_ENUMS.has(schema as z.ZodType);
}

/**
 * A date-time request parameter: an ISO-8601 string as given, or a `Date`, sent as its ISO string (UTC,
 * trailing Z). The server owns the format check, so a string is not validated here.
 */
export function dateTimeInput(): ZodMiniType<string, string | Date> {
  return union([
    string(),
    pipe(
      date(),
      transform((value: Date) => value.toISOString()),
    ),
  ]);
}
