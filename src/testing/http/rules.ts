import {
  type BodyOperationId,
  type FieldRule,
  type FieldRules,
  type QueryOperationId,
  REQUEST_BODIES,
  REQUEST_QUERIES,
} from '../../generated/request-rules.js';
import type { FieldValues } from '../features/operation-rules.js';
import { FieldReader } from './fields.js';
import { routeFor } from './operations.js';
import type { RouteContext, RouteDefinition, RouteResult } from './route.js';

export type { FieldValues };

/** The spec's rules of a body with the sandbox's added to them (see `bodyRoute`). */
type BodyRules<Id extends BodyOperationId, Own> = (typeof REQUEST_BODIES)[Id] & Own;

/** The spec's rules of a query with the sandbox's added to them (see `queryRoute`). */
type QueryRules<Id extends QueryOperationId, Own> = (typeof REQUEST_QUERIES)[Id] & Own;

/** A route handler that takes the request already read by its rules, and the reader that holds the problems. */
export type CheckedHandler<Values> = (
  context: RouteContext,
  values: Values,
  fields: FieldReader,
) => RouteResult | Promise<RouteResult>;

/**
 * A route keyed by operation id whose JSON body is read by the spec's rules before `handle` runs; `own` adds
 * the sandbox's rules where the reference is silent (it may add to a spec rule, never change one: checked at
 * load). The handler calls `fields.done()` before changing anything, which throws one 400 naming every bad
 * field; returning without calling it fails loudly.
 */
export function bodyRoute<Id extends BodyOperationId, const Own extends FieldRules = {}>(
  operationId: Id,
  own: Own,
  handle: CheckedHandler<FieldValues<BodyRules<Id, Own>>>,
): RouteDefinition {
  const rules = mergeRules(REQUEST_BODIES[operationId], own, operationId);
  return {
    ...checkedRoute(operationId, rules, (context) => FieldReader.body(context.body), handle),
    body: rules,
  };
}

/**
 * `bodyRoute` for an endpoint that is not a list and reads its query parameters (range availability): they
 * are read by the spec's rules (a list is sent comma-separated), `own` adds the server's where the reference
 * is silent. Lists are `listRoute`s (list.ts).
 */
export function queryRoute<Id extends QueryOperationId, const Own extends FieldRules = {}>(
  operationId: Id,
  own: Own,
  handle: CheckedHandler<FieldValues<QueryRules<Id, Own>>>,
): RouteDefinition {
  const rules = mergeRules(REQUEST_QUERIES[operationId], own, operationId);
  return checkedRoute(operationId, rules, (context) => FieldReader.query(context.query), handle);
}

function checkedRoute<Values>(
  operationId: BodyOperationId | QueryOperationId,
  rules: FieldRules,
  reader: (context: RouteContext) => FieldReader,
  handle: CheckedHandler<Values>,
): RouteDefinition {
  return {
    ...routeFor(operationId),
    handle: async (context) => {
      const fields = reader(context);
      const values = fields.fields(rules) as Values;
      const result = await handle(context, values, fields);
      if (!fields.isDone)
        throw new Error(`sandbox route ${operationId} did not check its request (fields.done())`);
      return result;
    },
  };
}

/** The spec's rules with the sandbox's added: a shared field keeps the spec's type, format and values. */
export function mergeRules(spec: FieldRules, own: FieldRules, where: string): FieldRules {
  const merged: Record<string, FieldRule> = { ...spec };
  for (const [name, rule] of Object.entries(own)) {
    const base = spec[name];
    merged[name] = base === undefined ? rule : mergeRule(base, rule, `${where}: ${name}`);
  }
  return merged;
}

function mergeRule(spec: FieldRule, own: FieldRule, where: string): FieldRule {
  for (const key of ['type', 'format', 'enum', 'pattern'] as const) {
    const stated = spec[key];
    if (
      own[key] !== undefined &&
      stated !== undefined &&
      JSON.stringify(own[key]) !== JSON.stringify(stated)
    ) {
      throw new Error(`sandbox route ${where}: its ${key} is the spec's (${JSON.stringify(stated)})`);
    }
  }
  return {
    ...spec,
    ...own,
    ...(spec.items && own.items ? { items: mergeRule(spec.items, own.items, `${where}[]`) } : {}),
    ...(spec.properties && own.properties
      ? { properties: mergeRules(spec.properties, own.properties, where) }
      : {}),
  };
}
