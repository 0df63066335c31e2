import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ImportGraph, readImportGraph } from './import-graph.js';

// The sandbox's layout rules (src/testing/README.md): a feature's domain code (everything under
// src/testing/features/ except its routes) and the shared state and register code never see HTTP; the
// layers import one way.
// They take plain values and throw API errors by code; only route files translate HTTP <-> domain.

const ROOT = path.resolve(__dirname, '../../src/testing');
const HTTP_DIR = path.join(ROOT, 'http');
const HTTP_MODULES = [
  HTTP_DIR,
  path.join(ROOT, 'server.ts'),
  path.join(ROOT, 'msw.ts'),
  path.join(ROOT, 'msw-entry.ts'),
];
const HTTP_NAMES = /\b(Request|Response|Headers|RouteContext|RouteDefinition|FieldReader|ApiKey)\b/;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** A route file: `routes.ts`, or any file in a `routes/` folder of a feature. */
function isRouteFile(file: string): boolean {
  const rel = path.relative(ROOT, file).split(path.sep);
  return rel[0] === 'features' && (rel.at(-1) === 'routes.ts' || rel.slice(0, -1).includes('routes'));
}

/** Where `source` (the text of `file`) reaches HTTP: imports of http/, server or msw, or HTTP type names in code. */
function httpUses(file: string, source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
    const target = path.resolve(path.dirname(file), match[1]!).replace(/\.js$/, '.ts');
    if (HTTP_MODULES.some((module) => target === module || target.startsWith(`${HTTP_DIR}${path.sep}`))) {
      found.push(`imports ${match[1]}`);
    }
  }
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  const name = HTTP_NAMES.exec(code);
  if (name) found.push(`names ${name[1]}`);
  return found;
}

/** Where route code reads the request itself instead of taking what its rules read. */
function handReadsOf(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  return [
    ...code.matchAll(
      /FieldReader\.(?:body|query)\(|\bcontext\.(?:body|query)\b|\{[^}]*\b(?:body|query)\b[^}]*\}\s*=\s*context\b/g,
    ),
  ].map((match) => match[0]);
}

const domainFiles = ['features', 'state', 'register']
  .flatMap((dir) => filesUnder(path.join(ROOT, dir)))
  .filter((file) => !isRouteFile(file));

describe('sandbox layout: domain code without HTTP', () => {
  it('finds the domain files of every feature', () => {
    const features = new Set(
      domainFiles
        .map((file) => path.relative(path.join(ROOT, 'features'), file).split(path.sep))
        .filter((parts) => parts.length > 1 && parts[0] !== '..')
        .map((parts) => parts[0]),
    );
    expect([...features].sort()).toEqual([
      'inventory',
      'memberships',
      'purchasing',
      'range',
      'returns',
      'sales',
      'shop',
    ]);
    expect(domainFiles.length).toBeGreaterThan(40);
  });

  it('no domain, state or register file imports http/ or names a request, response, route or key', () => {
    const offenders = domainFiles.flatMap((file) =>
      httpUses(file, readFileSync(file, 'utf8')).map((use) => `${path.relative(ROOT, file)}: ${use}`),
    );
    expect(offenders).toEqual([]);
  });

  it('route files change no state themselves: no touch, event record or insert outside the domain', () => {
    const routeFiles = filesUnder(path.join(ROOT, 'features')).filter(isRouteFile);
    expect(routeFiles.length).toBeGreaterThan(15);
    const writes = routeFiles.flatMap((file) => {
      const code = readFileSync(file, 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/\/\/.*$/gm, '');
      return [...code.matchAll(/\btouch\(|\.events\.record\(|\.insert\(/g)].map(
        (match) => `${path.relative(ROOT, file)}: ${match[0]}`,
      );
    });
    expect(writes).toEqual([]);
  });

  it('route files read no request body or query by hand: the spec’s rules read them (http/rules.ts, list.ts)', () => {
    const routeFiles = filesUnder(path.join(ROOT, 'features')).filter(isRouteFile);
    const handReads = routeFiles.flatMap((file) =>
      handReadsOf(readFileSync(file, 'utf8')).map((use) => `${path.relative(ROOT, file)}: ${use}`),
    );
    expect(handReads).toEqual([]);
    expect(handReadsOf('const reader = FieldReader.body(context.body);')).toEqual([
      'FieldReader.body(',
      'context.body',
    ]);
    expect(handReadsOf('const { query } = context; FieldReader.query(query)')).toEqual([
      '{ query } = context',
      'FieldReader.query(',
    ]);
  });

  it('the check catches an HTTP import and an HTTP type (so a clean result means something)', () => {
    const file = path.join(ROOT, 'features/range/booking.ts');
    expect(httpUses(file, "import type { RouteContext } from '../../http/route.js';")).toEqual([
      'imports ../../http/route.js',
      'names RouteContext',
    ]);
    expect(httpUses(file, 'export function f(request: Request) {}')).toEqual(['names Request']);
    expect(httpUses(file, "import { x } from '../actor.js';\n// a Response in a comment is fine")).toEqual(
      [],
    );
    expect(isRouteFile(path.join(ROOT, 'features/range/routes/reservations.ts'))).toBe(true);
    expect(isRouteFile(path.join(ROOT, 'features/memberships/routes.ts'))).toBe(true);
    expect(isRouteFile(path.join(ROOT, 'features/range/booking.ts'))).toBe(false);
  });

  it('errors are thrown by code only: the HTTP status of a code is found in http/ alone', () => {
    const outsideHttp = filesUnder(ROOT).filter(
      (file) => !HTTP_MODULES.some((module) => file === module || file.startsWith(`${HTTP_DIR}${path.sep}`)),
    );
    expect(outsideHttp).toContain(path.join(ROOT, 'errors.ts'));
    const offenders = outsideHttp.flatMap((file) =>
      statusUses(readFileSync(file, 'utf8')).map((use) => `${path.relative(ROOT, file)}: ${use}`),
    );
    expect(offenders).toEqual([]);
    // The check itself finds what it looks for.
    expect(statusUses("import { ERROR_CODE_STATUS } from '../generated/error-codes.js';")).toEqual([
      'ERROR_CODE_STATUS',
    ]);
    expect(statusUses("throw new SandboxApiError(409, 'INVALID_STATE', 'no');")).toEqual([
      'new SandboxApiError(4',
    ]);
    expect(statusUses("import { statusOf } from '../../http/status.js';")).toEqual(["/status.js'"]);
    expect(statusUses("throw apiError('INVALID_STATE', 'no'); // ERROR_CODE_STATUS in a comment")).toEqual(
      [],
    );
  });
});

/** Where code outside http/ reaches for an HTTP status: the status table, http/status.ts, a status in an error. */
function statusUses(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  return [
    ...code.matchAll(
      /\b(?:ERROR_CODE_STATUS|ApiErrorWithHeaders)\b|\/status\.js'|new SandboxApiError\(\s*\d/g,
    ),
  ].map((match) => match[0]);
}

/**
 * The sandbox's layers, lowest first: an import goes to its own layer or a lower one. A route file
 * (`isRouteFile`) is the HTTP of its feature, so it sits with http/; the root files sit where their imports put
 * them. The longest member that matches places a file.
 */
const SANDBOX_LAYERS: readonly { readonly name: string; readonly members: readonly string[] }[] = [
  {
    name: 'state',
    members: ['state/', 'errors.ts', 'clock.ts', 'random.ts', 'options.ts', 'activity.ts', 'ip.ts'],
  },
  { name: 'events', members: ['events/', 'factories/'] },
  { name: 'features', members: ['features/', 'register/'] },
  // world.ts: the domain's world plus the HTTP machinery (keys, rate limits, idempotency, faults).
  { name: 'http', members: ['http/', 'world.ts'] },
  { name: 'sandbox', members: [''] },
];

function layerOf(file: string): number {
  if (isRouteFile(path.join(ROOT, file))) return SANDBOX_LAYERS.findIndex((layer) => layer.name === 'http');
  let found = -1;
  let longest = -1;
  SANDBOX_LAYERS.forEach((layer, index) => {
    for (const member of layer.members) {
      const matches = member === '' || file === member || (member.endsWith('/') && file.startsWith(member));
      if (matches && member.length > longest) {
        found = index;
        longest = member.length;
      }
    }
  });
  return found;
}

/** Every import of the sandbox that points to a higher layer, as `from -> to (lower -> higher)`. */
function upwardImports(graph: ImportGraph): string[] {
  return [...graph].flatMap(([from, targets]) =>
    [...targets]
      .filter((to) => !to.startsWith('..') && layerOf(to) > layerOf(from))
      .map(
        (to) =>
          `${from} -> ${to} (${SANDBOX_LAYERS[layerOf(from)]!.name} -> ${SANDBOX_LAYERS[layerOf(to)]!.name})`,
      ),
  );
}

/** Folder pairs of the sandbox (`features`, `http`, a root file is `.`) that import each other both ways. */
function twoWayFolders(graph: ImportGraph): string[] {
  const folder = (file: string) => (file.includes('/') ? file.split('/')[0]! : '.');
  const edges = new Set<string>();
  for (const [from, targets] of graph) {
    for (const to of targets) {
      if (!to.startsWith('..') && folder(from) !== folder(to)) edges.add(`${folder(from)} <-> ${folder(to)}`);
    }
  }
  return [...edges].filter((edge) => {
    const [a, b] = edge.split(' <-> ');
    return a! < b! && edges.has(`${b} <-> ${a}`);
  });
}

describe('sandbox layout: layers import one way (state < events < features < http < sandbox)', () => {
  const graph = readImportGraph(ROOT);

  it('places every file of the sandbox in a layer', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect([...graph.keys()].filter((file) => layerOf(file) < 0)).toEqual([]);
    expect(layerOf('state/table.ts')).toBe(0);
    expect(layerOf('features/range/booking.ts')).toBe(2);
    expect(layerOf('features/range/routes/reservations.ts')).toBe(3);
    expect(layerOf('sandbox.ts')).toBe(4);
  });

  it('no import points to a higher layer', () => {
    expect(upwardImports(graph)).toEqual([]);
  });

  it('apart from route files (the http of a feature) and root files, no two folders import each other', () => {
    const withoutRoutes = new Map(
      [...graph]
        .filter(([from]) => !isRouteFile(path.join(ROOT, from)))
        .map(([from, targets]) => [
          from,
          new Set([...targets].filter((to) => !isRouteFile(path.join(ROOT, to)))),
        ]),
    );
    expect(twoWayFolders(withoutRoutes).filter((pair) => !pair.startsWith('. '))).toEqual([]);
  });

  it('the checks catch a backward import (so a clean result means something)', () => {
    const backward = new Map(graph);
    backward.set('state/table.ts', new Set([...(graph.get('state/table.ts') ?? []), 'features/state.ts']));
    backward.set('features/range/booking.ts', new Set(['http/route.ts']));
    expect(upwardImports(backward).sort()).toEqual([
      'features/range/booking.ts -> http/route.ts (features -> http)',
      'state/table.ts -> features/state.ts (state -> features)',
    ]);
    expect(twoWayFolders(backward)).toContain('features <-> state');
  });
});
