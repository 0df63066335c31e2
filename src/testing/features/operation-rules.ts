import type { OperationId, operations } from '../../generated/operations.js';
import type {
  BodyOperationId,
  QueryOperationId,
  REQUEST_BODIES,
  REQUEST_QUERIES,
} from '../../generated/request-rules.js';
import type { Actor } from './actor.js';
import type { DomainWorld } from './world.js';

/** What a field's rule reads to: a date-time as milliseconds, a nested object by its own rules. */
type ValueOf<R> =
  | (R extends { readonly nullable: true } ? null : never)
  | (R extends { readonly type: 'integer' | 'number' }
      ? number
      : R extends { readonly type: 'boolean' }
        ? boolean
        : R extends { readonly format: 'date-time' }
          ? number
          : R extends { readonly enum: readonly (infer E)[] }
            ? E
            : R extends { readonly type: 'string' }
              ? string
              : R extends { readonly type: 'array'; readonly items: infer I }
                ? ValueOf<I>[]
                : R extends { readonly type: 'array' }
                  ? unknown[]
                  : R extends { readonly type: 'object'; readonly properties: infer P }
                    ? FieldValues<P>
                    : R extends { readonly type: 'object' }
                      ? Readonly<Record<string, unknown>>
                      : unknown);

/** The values read by a body's or query's rules; each optional (a refused one is absent until the 400). */
export type FieldValues<F> = { -readonly [K in keyof F]?: ValueOf<F[K]> };

/** Any operation but a cursor list (a list is a `listRoute`). */
export type RuleOperationId = {
  [Id in OperationId]: (typeof operations)[Id]['pagination'] extends 'cursor' ? never : Id;
}[OperationId];

/** Path parameters by name, an `integer` one as a number. */
type PathValues<Id extends OperationId> = {
  readonly [P in (typeof operations)[Id]['pathParams'][number] as P['name']]: P extends {
    readonly type: 'integer';
  }
    ? number
    : string;
};

/** Who acts, and the request read by the spec's rules, as plain values. */
export interface OperationInput<Id extends OperationId> {
  readonly actor: Actor;
  readonly path: PathValues<Id>;
  readonly body: Id extends BodyOperationId ? FieldValues<(typeof REQUEST_BODIES)[Id]> : {};
  readonly query: Id extends QueryOperationId ? FieldValues<(typeof REQUEST_QUERIES)[Id]> : {};
}

/**
 * The domain rule of one operation: it returns the answer's `data` and throws API errors by code. Its route
 * (http/rule-routes.ts) is built from the generated tables.
 */
export type OperationRule<Id extends OperationId> = (
  world: DomainWorld,
  input: OperationInput<Id>,
) => unknown;

export type OperationRules = { readonly [Id in RuleOperationId]?: OperationRule<Id> };

/** Rules served with no route line: `npm run generate` lists each `export const x = operationRules(...)`. */
export function operationRules(rules: OperationRules): OperationRules {
  return rules;
}
