// The sandbox's stored records come from the SDK's generated record types (src/generated/schemas.ts, from
// spec/openapi.yaml): a record type is `SandboxRecord<Api.X, Own, Rendered>`, so a field the spec adds,
// removes, renames or retypes changes the sandbox's record with it. `Own` fields are the sandbox's
// deliberate differences (sandbox-only state, narrower values where the client's union is open); the check in
// api-records-check.ts still holds every record to the client's type, so an `Own` field cannot drift either.
// Types only: nothing here exists at runtime.

/**
 * The API type as the sandbox stores it: the named fields only (no `[key: string]: unknown`, at every depth),
 * each present and writable (a field the spec leaves optional is still stored; it may be null where the
 * spec says so).
 */
export type Stored<T> = T extends string | number | boolean | bigint | null | undefined
  ? T // open enums (`'a' | (string & {})`) are primitives too
  : T extends readonly (infer Item)[]
    ? Stored<Item>[]
    : T extends object
      ? { -readonly [K in keyof T as string extends K ? never : K]-?: Stored<Exclude<T[K], undefined>> }
      : T;

/**
 * A sandbox record: the API type as stored, with the `Own` fields replacing or added to it (documented where
 * they are declared) and the `Rendered` fields, which a route computes when it answers, left out.
 */
export type SandboxRecord<Api, Own extends object = {}, Rendered extends string = never> = Omit<
  Stored<Api>,
  keyof Own | Rendered
> &
  Own;
