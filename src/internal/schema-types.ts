import type * as core from 'zod/v4/core';

/** zod's core schema types, shared by classic `zod` and `zod/mini`. */
export declare namespace z {
  /** Any zod schema, classic or mini. */
  type ZodType<Output = unknown, Input = unknown> = core.$ZodType<Output, Input>;
  /** `z.unknown()` of either API. */
  type ZodUnknown = core.$ZodUnknown;
  /** What a schema parses to. */
  type output<T> = core.output<T>;
  /** What a schema accepts. */
  type input<T> = core.input<T>;
}
