import { operations } from '../../generated/operations.js';
import { PERMISSION_RESOURCES, type Permission } from './keys.js';
import type { RouteDefinition } from './route.js';

/** An operation id of the generated table (src/generated/operations.ts), e.g. `range.reservations.list`. */
export type OperationId = keyof typeof operations;

const PERMISSIONS: ReadonlySet<string> = new Set(
  PERMISSION_RESOURCES.flatMap((resource) => [`${resource}:read`, `${resource}:write`]),
);

/**
 * What a route takes from the generated operation table, so the sandbox never restates the spec: method,
 * path, the permission it needs, and whether an Idempotency-Key is mandatory. Throws at load time for an
 * id the table lacks or a permission the sandbox's keys cannot hold.
 */
export function routeFor(operationId: OperationId): Omit<RouteDefinition, 'handle'> {
  const operation = (operations as Record<string, (typeof operations)[OperationId] | undefined>)[operationId];
  if (!operation) throw new Error(`sandbox route: no operation ${operationId} in the generated table`);
  const permission = operation.permission as string | null;
  if (permission !== null && !PERMISSIONS.has(permission)) {
    throw new Error(`sandbox route ${operationId}: permission ${permission} is not one the sandbox knows`);
  }
  return {
    method: operation.method as RouteDefinition['method'],
    path: operation.path,
    permission: permission as Permission | null,
    ...(operation.idempotency === 'required' ? { idempotency: 'required' as const } : {}),
  };
}
