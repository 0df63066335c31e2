// The import graph of src/ and the rules it must keep (CONTRIBUTING.md, "Floors"). Read by
// test/architecture/architecture.test.ts; nothing here runs the code it reads.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** A file's path relative to the root it was read from, with `/` separators (`core/transport/transport.ts`). */
export type FilePath = string;

/** Every `.ts` file under the root and the files of the root its imports name (type-only and `import()` included). */
export type ImportGraph = ReadonlyMap<FilePath, ReadonlySet<FilePath>>;

export interface Floor {
  readonly name: string;
  /** A folder (`core/`) or a file (`client.ts`), relative to src/; the longest match places a file. */
  readonly members: readonly string[];
}

/**
 * The floors of src/, lowest first. A file may import its own floor or one below it, never one above; within
 * a floor, folders may import one another as long as no circle forms (the circle rule below catches it).
 */
export const FLOORS: readonly Floor[] = [
  // Helpers with no SDK types of their own: they return a problem, and the caller chooses the error.
  { name: 'internal', members: ['internal/', 'version.ts'] },
  // The contracts (operations, errors, the transport) and the tables the spec fills in for them: core
  // types its errors by the generated error codes, the generated endpoint table implements core's
  // `Operation`. Neither knows a resource, a webhook or the client.
  { name: 'core', members: ['core/', 'generated/'] },
  // What is built on core alone: the resource groups, webhooks, and sync (catch-up, poll, checkpoints, the
  // inbox, the inventory mirror, the SQL drivers, and the engine, which names the client methods it calls).
  // generated/sync-schema.ts is the sync engine's tables, typed by the engine's own shapes
  // (sync/engine/schema-types.ts): generated for the engine and read by it alone, so it sits on its floor.
  { name: 'features', members: ['resources/', 'webhooks/', 'sync/', 'generated/sync-schema.ts'] },
  { name: 'client', members: ['client.ts'] },
  // Programs that drive a client or stand in for the API: the CLI, the sandbox, and the fleet (a client per
  // shop driving the engine).
  { name: 'programs', members: ['cli/', 'testing/', 'sync/fleet/'] },
  // The package's entry modules: they gather the public names and nothing imports them.
  // `shop-mgmt/sync` (sync/engine/index.ts) gathers the engine and the fleet.
  { name: 'entries', members: ['index.ts', 'schemas.ts', 'redis.ts', 'otel.ts', 'sync/engine/index.ts'] },
];

/**
 * The one pair allowed to point up and to close a circle: the client extends the generated
 * `ShopClientResources`, whose getters hand the client (typed as `ShopClient`) to every group they build.
 */
export const ANCHOR_PAIR = { from: 'resources/', to: 'client.ts' } as const;

/**
 * Imports that still close a circle, each with the work that removes it. The live test fails on any circle
 * that needs more than these to break, and on an entry whose import is gone, so this list only shrinks.
 */
export const PENDING_EDGES: readonly { readonly edge: string; readonly until: string }[] = [];

/** The graph without the given `from -> to` imports. */
export function withoutEdges(graph: ImportGraph, edges: readonly string[]): ImportGraph {
  const dropped = new Set(edges);
  return new Map(
    [...graph].map(([from, targets]) => [
      from,
      new Set([...targets].filter((to) => !dropped.has(`${from} -> ${to}`))),
    ]),
  );
}

/** Reads every import of every `.ts` file under `root`. Only relative specifiers name files of the root. */
export function readImportGraph(root: string): ImportGraph {
  const graph = new Map<FilePath, Set<FilePath>>();
  for (const file of listTypeScript(root)) {
    const from = toFilePath(root, file);
    const targets = new Set<FilePath>();
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const imported of info.importedFiles) {
      const specifier = imported.fileName;
      if (!specifier.startsWith('.')) continue;
      const target = resolveSpecifier(file, specifier);
      if (target === null) {
        throw new Error(`${from}: the import of '${specifier}' names no file of ${root}`);
      }
      targets.add(toFilePath(root, target));
    }
    graph.set(from, targets);
  }
  return graph;
}

function listTypeScript(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...listTypeScript(path));
    else if (name.endsWith('.ts')) out.push(path);
  }
  return out;
}

function resolveSpecifier(fromFile: string, specifier: string): string | null {
  const base = resolve(dirname(fromFile), specifier);
  const candidates = [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')];
  return candidates.find((candidate) => candidate.endsWith('.ts') && existsSync(candidate)) ?? null;
}

function toFilePath(root: string, file: string): FilePath {
  return relative(root, file).split(sep).join('/');
}

/** The floor of a file (its index in `floors`), by the longest member that holds it; null when none does. */
export function floorOf(file: FilePath, floors: readonly Floor[] = FLOORS): number | null {
  let best: { floor: number; length: number } | null = null;
  floors.forEach((floor, index) => {
    for (const member of floor.members) {
      const holds = member.endsWith('/') ? file.startsWith(member) : file === member;
      if (holds && (best === null || member.length > best.length))
        best = { floor: index, length: member.length };
    }
  });
  return (best as { floor: number } | null)?.floor ?? null;
}

/** Files no floor places: a new folder must be given a floor before it may hold code. */
export function unplacedFiles(graph: ImportGraph, floors: readonly Floor[] = FLOORS): FilePath[] {
  return [...graph.keys()].filter((file) => floorOf(file, floors) === null);
}

function isAnchorEdge(from: FilePath, to: FilePath): boolean {
  return from.startsWith(ANCHOR_PAIR.from) && to === ANCHOR_PAIR.to;
}

/** Every import that points to a higher floor, as `from -> to (floor -> floor)`. */
export function upwardImports(graph: ImportGraph, floors: readonly Floor[] = FLOORS): string[] {
  const found: string[] = [];
  for (const [from, targets] of graph) {
    const fromFloor = floorOf(from, floors);
    for (const to of targets) {
      const toFloor = floorOf(to, floors);
      if (fromFloor === null || toFloor === null || toFloor <= fromFloor) continue;
      if (isAnchorEdge(from, to)) continue;
      found.push(`${from} -> ${to} (${floors[fromFloor]?.name} imports ${floors[toFloor]?.name})`);
    }
  }
  return found.sort();
}

/** The strongly connected components of more than one file (or a file importing itself), each sorted. */
export function circles(graph: ImportGraph): FilePath[][] {
  // Tarjan's algorithm, iterative so that a long chain of imports cannot overflow the stack.
  const index = new Map<FilePath, number>();
  const low = new Map<FilePath, number>();
  const onStack = new Set<FilePath>();
  const stack: FilePath[] = [];
  const found: FilePath[][] = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { file: FilePath; targets: Iterator<FilePath> }[] = [];
    const enter = (file: FilePath) => {
      index.set(file, next);
      low.set(file, next);
      next += 1;
      stack.push(file);
      onStack.add(file);
      work.push({ file, targets: (graph.get(file) ?? new Set<FilePath>()).values() });
    };
    enter(start);
    while (work.length > 0) {
      const frame = work[work.length - 1] as (typeof work)[number];
      const step = frame.targets.next();
      if (!step.done) {
        const target = step.value;
        if (!index.has(target)) enter(target);
        else if (onStack.has(target))
          low.set(frame.file, Math.min(low.get(frame.file) as number, index.get(target) as number));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent)
        low.set(parent.file, Math.min(low.get(parent.file) as number, low.get(frame.file) as number));
      if (low.get(frame.file) === index.get(frame.file)) {
        const component: FilePath[] = [];
        let member: FilePath;
        do {
          member = stack.pop() as FilePath;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.file);
        const selfImport = graph.get(frame.file)?.has(frame.file) ?? false;
        if (component.length > 1 || selfImport) found.push(component.sort());
      }
    }
  }
  return found.sort((a, b) => b.length - a.length || (a[0] ?? '').localeCompare(b[0] ?? ''));
}

/** A circle made only of the client and resources/ files: the anchors' pair, allowed. */
export function isAnchorCircle(circle: readonly FilePath[]): boolean {
  return circle.every((file) => file === ANCHOR_PAIR.to || file.startsWith(ANCHOR_PAIR.from));
}

/**
 * The imports inside a circle, as `a -> b` lines: what to read to break it (one of them must go). Listed
 * for each circle the rule refuses, so the failure names the edges, not only the files.
 */
export function circleEdges(graph: ImportGraph, circle: readonly FilePath[]): string[] {
  const members = new Set(circle);
  const edges: string[] = [];
  for (const from of circle) {
    for (const to of graph.get(from) ?? []) if (members.has(to)) edges.push(`${from} -> ${to}`);
  }
  return edges.sort();
}

/** Each refused circle as one message: its size and the imports that close it. */
export function refusedCircles(graph: ImportGraph): string[] {
  return circles(graph)
    .filter((circle) => !isAnchorCircle(circle))
    .map((circle) => `circle of ${circle.length} files:\n  ${circleEdges(graph, circle).join('\n  ')}`);
}
