import type { RouteDefinition } from './route.js';

/** Result of looking up a path: the route, or the methods the path does allow (405), or nothing (404). */
export type RouteMatch =
  | { readonly kind: 'found'; readonly route: RouteDefinition; readonly params: Record<string, string> }
  | { readonly kind: 'method_not_allowed'; readonly allowed: readonly string[] }
  | { readonly kind: 'not_found' };

interface CompiledRoute {
  readonly route: RouteDefinition;
  readonly segments: readonly string[];
}

/** A tiny path routeTable: literal segments and `{name}` placeholders, nothing else. */
export class RouteTable {
  private readonly routes: CompiledRoute[];

  constructor(routes: readonly RouteDefinition[]) {
    this.routes = routes.map((route) => ({ route, segments: split(route.path) }));
  }

  match(method: string, path: string): RouteMatch {
    const segments = split(path);
    const allowed: string[] = [];
    for (const { route, segments: pattern } of this.routes) {
      const params = matchSegments(pattern, segments);
      if (!params) continue;
      if (route.method === method) return { kind: 'found', route, params };
      allowed.push(route.method);
    }
    return allowed.length > 0 ? { kind: 'method_not_allowed', allowed } : { kind: 'not_found' };
  }
}

function split(path: string): string[] {
  return path.split('/').filter((segment) => segment.length > 0);
}

function matchSegments(pattern: readonly string[], actual: readonly string[]): Record<string, string> | null {
  if (pattern.length !== actual.length) return null;
  const params: Record<string, string> = {};
  for (const [index, part] of pattern.entries()) {
    const value = actual[index]!;
    if (part.startsWith('{') && part.endsWith('}')) {
      try {
        params[part.slice(1, -1)] = decodeURIComponent(value);
      } catch {
        return null;
      }
    } else if (part !== value) {
      return null;
    }
  }
  return params;
}
