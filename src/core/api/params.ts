import type { z } from '../../internal/schema-types.js';

/** The arguments of one call, by where they are sent. */
export interface RequestParams {
  /** Values for the path's `{placeholders}`. */
  readonly path?: Readonly<Record<string, unknown>>;
  /** Query string values; `undefined` and `null` are left out. */
  readonly query?: Readonly<Record<string, unknown>>;
  /** The JSON body. */
  readonly body?: unknown;
}

/** The arguments of `shop.get` and `shop.delete`. */
export interface RawRequestParams<Result extends z.ZodType = z.ZodUnknown> {
  /** Values for the path's `{placeholders}`, each one segment. */
  readonly path?: Readonly<Record<string, string | number>>;
  /** Query string values; `undefined` and `null` are left out. */
  readonly query?: Readonly<Record<string, unknown>>;
  /** Validates the envelope's `data` and types the result. @default not checked, typed `unknown` */
  readonly result?: Result;
}

/** The arguments of `shop.post` and `shop.patch`. */
export interface RawRequestParamsWithBody<Result extends z.ZodType = z.ZodUnknown>
  extends RawRequestParams<Result> {
  /** The JSON body, sent as given. */
  readonly body?: unknown;
}
