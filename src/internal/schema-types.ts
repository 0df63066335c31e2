import type * as core from 'zod/v4/core';

/**
 * The schema types the SDK's signatures name, as `z.ZodType` and friends. They are zod's core types, which
 * both of zod's APIs build on: the generated schemas are `zod/mini` (only what is used gets bundled), and a
 * caller's own `result` schema for `shop.get(...)` may come from classic `zod` or `zod/mini` alike.
 */
export declare namespace z {
  /** Any zod schema, classic or mini. */
  type ZodType<Output = unknown, Input = unknown> = core.$ZodType<Output, Input>;
  /** `z.unknown()` of either API: the schema of a result nobody checks. */
  type ZodUnknown = core.$ZodUnknown;
  /** What a schema parses to. */
  type output<T> = core.output<T>;
  /** What a schema accepts. */
  type input<T> = core.input<T>;
}
