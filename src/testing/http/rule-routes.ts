import { type OperationId, operations } from '../../generated/operations.js';
import { type FieldRules, REQUEST_BODIES, REQUEST_QUERIES } from '../../generated/request-rules.js';
import type {
  OperationInput,
  OperationRule,
  OperationRules,
  RuleOperationId,
} from '../features/operation-rules.js';
import { FieldReader, pathId } from './fields.js';
import { routeFor } from './operations.js';
import type { RouteDefinition } from './route.js';

const BODIES: Readonly<Record<string, FieldRules | undefined>> = REQUEST_BODIES;
const QUERIES: Readonly<Record<string, FieldRules | undefined>> = REQUEST_QUERIES;

/** One route per rule of the tables (features/operation-rules.ts). */
export function ruleRoutes(...tables: readonly OperationRules[]): RouteDefinition[] {
  return tables.flatMap((table) =>
    Object.entries(table).map(([id, rule]) =>
      ruleRoute(id as RuleOperationId, rule as OperationRule<RuleOperationId>),
    ),
  );
}

/**
 * Serves `rule` as the spec describes `operationId`: a malformed id is 404 and the body or query is read by
 * the spec's rules (one 400) before the rule runs; the answer goes at the spec's success status.
 */
export function ruleRoute<Id extends RuleOperationId>(
  operationId: Id,
  rule: OperationRule<Id>,
): RouteDefinition {
  const operation = operations[operationId as OperationId];
  if (operation.pagination === 'cursor') {
    throw new Error(`sandbox rule ${operationId}: a list is a listRoute in its feature's routes file`);
  }
  const body = BODIES[operationId];
  const query = QUERIES[operationId];
  const what = nounOf(operation.path);
  return {
    ...routeFor(operationId),
    ...(body ? { body } : {}),
    handle: (context) => {
      const path: Record<string, string | number> = {};
      for (const param of operation.pathParams) {
        path[param.name] =
          param.type === 'integer' ? pathId(context.params, what, param.name) : context.params[param.name]!;
      }
      const input = {
        actor: context.key,
        path,
        body: body ? read(FieldReader.body(context.body), body) : {},
        query: query ? read(FieldReader.query(context.query), query) : {},
      } as unknown as OperationInput<Id>;
      return { status: operation.successStatus, data: rule(context.sandbox, input) };
    },
  };
}

function read(reader: FieldReader, rules: FieldRules): Record<string, unknown> {
  const values = reader.fields(rules);
  reader.done();
  return values;
}

/** What a path's id names, for its 404: `/v1/gift-certificates/{id}/redeem` -> `gift certificate`. */
export function nounOf(path: string): string {
  const segments = path.split('/');
  const named = segments[segments.findIndex((segment) => segment.startsWith('{')) - 1] ?? 'record';
  return named.replace(/ies$/, 'y').replace(/s$/, '').replaceAll('-', ' ');
}
