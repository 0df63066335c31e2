import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  circles,
  FLOORS,
  floorOf,
  type ImportGraph,
  PENDING_EDGES,
  readImportGraph,
  refusedCircles,
  unplacedFiles,
  upwardImports,
  withoutEdges,
} from './import-graph.js';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '../../src');

function graphOf(edges: Record<string, string[]>): ImportGraph {
  const graph = new Map<string, Set<string>>();
  for (const [from, targets] of Object.entries(edges)) {
    graph.set(from, new Set(targets));
    for (const to of targets) if (!graph.has(to) && !(to in edges)) graph.set(to, new Set());
  }
  return graph;
}

describe('the rules, on graphs made for them', () => {
  it('places a file by the longest member that holds it', () => {
    expect(FLOORS[floorOf('internal/path.ts') as number]?.name).toBe('internal');
    expect(FLOORS[floorOf('core/errors/shop-error.ts') as number]?.name).toBe('core');
    expect(FLOORS[floorOf('generated/operations.ts') as number]?.name).toBe('core');
    expect(FLOORS[floorOf('sync/catch-up.ts') as number]?.name).toBe('features');
    expect(FLOORS[floorOf('sync/engine/shop-sync.ts') as number]?.name).toBe('features');
    expect(FLOORS[floorOf('client.ts') as number]?.name).toBe('client');
    expect(floorOf('somewhere-new/file.ts')).toBeNull();
    expect(floorOf('client.ts.bak')).toBeNull();
    expect(FLOORS[floorOf('generated/sync-schema.ts') as number]?.name).toBe('features');
  });

  it('refuses an import pointing up the floors and names it', () => {
    const graph = graphOf({
      'internal/path.ts': ['core/errors/shop-error.ts'],
      'core/errors/index.ts': ['webhooks/errors.ts'],
      'core/transport.ts': ['internal/path.ts'],
      'webhooks/errors.ts': ['core/errors/shop-error.ts'],
    });
    expect(upwardImports(graph)).toEqual([
      'core/errors/index.ts -> webhooks/errors.ts (core imports features)',
      'internal/path.ts -> core/errors/shop-error.ts (internal imports core)',
    ]);
  });

  it('lets a floor import itself and the floors below it, and resources/ import the client', () => {
    const graph = graphOf({
      'cli/run.ts': ['testing/index.ts', 'client.ts', 'sync/engine/shop-sync.ts', 'internal/env.ts'],
      'sync/engine/shop-sync.ts': ['sync/sql/driver.ts', 'sync/catch-up.ts'],
      'sync/catch-up.ts': ['webhooks/dedupe.ts', 'core/errors/shop-error.ts'],
      'resources/client-resources.ts': ['client.ts'],
      'core/errors/api-errors.ts': ['generated/error-codes.ts'],
      'index.ts': ['client.ts', 'cli/run.ts'],
    });
    expect(upwardImports(graph)).toEqual([]);
  });

  it('still refuses any other import of the client from below it', () => {
    const graph = graphOf({
      'core/resource.ts': ['client.ts'],
      'sync/engine/shop-sync.ts': ['client.ts'],
      'cli/run.ts': ['sync/engine/shop-sync.ts'],
    });
    expect(upwardImports(graph)).toEqual([
      'core/resource.ts -> client.ts (core imports client)',
      'sync/engine/shop-sync.ts -> client.ts (features imports client)',
    ]);
  });

  it('finds every circle, with the imports that close it', () => {
    const graph = graphOf({
      'sync/a.ts': ['sync/b.ts'],
      'sync/b.ts': ['sync/c.ts'],
      'sync/c.ts': ['sync/a.ts', 'core/x.ts'],
      'core/x.ts': ['core/y.ts'],
      'core/y.ts': ['core/x.ts'],
      'core/self.ts': ['core/self.ts'],
      'core/leaf.ts': [],
    });
    expect(circles(graph)).toEqual([
      ['sync/a.ts', 'sync/b.ts', 'sync/c.ts'],
      ['core/x.ts', 'core/y.ts'],
      ['core/self.ts'],
    ]);
    expect(refusedCircles(graph)).toEqual([
      'circle of 3 files:\n  sync/a.ts -> sync/b.ts\n  sync/b.ts -> sync/c.ts\n  sync/c.ts -> sync/a.ts',
      'circle of 2 files:\n  core/x.ts -> core/y.ts\n  core/y.ts -> core/x.ts',
      'circle of 1 files:\n  core/self.ts -> core/self.ts',
    ]);
  });

  it('allows the circle of the client and resources/ only, not one that takes in a core file', () => {
    const anchors = graphOf({
      'client.ts': ['resources/client-resources.ts'],
      'resources/client-resources.ts': ['client.ts', 'resources/range.ts'],
      'resources/range.ts': ['core/resource.ts'],
    });
    expect(circles(anchors)).toHaveLength(1);
    expect(refusedCircles(anchors)).toEqual([]);
    const widened = graphOf({
      'client.ts': ['resources/client-resources.ts'],
      'resources/client-resources.ts': ['resources/range.ts'],
      'resources/range.ts': ['core/resource.ts'],
      'core/resource.ts': ['client.ts'],
    });
    expect(refusedCircles(widened)).toHaveLength(1);
    expect(refusedCircles(widened)[0]).toContain('core/resource.ts -> client.ts');
  });

  it('breaks a circle by the pending imports given, and by nothing else', () => {
    const graph = graphOf({
      'core/a.ts': ['core/b.ts'],
      'core/b.ts': ['core/a.ts', 'core/c.ts'],
      'core/c.ts': ['core/b.ts'],
    });
    expect(refusedCircles(withoutEdges(graph, ['core/b.ts -> core/a.ts']))).toHaveLength(1);
    expect(refusedCircles(withoutEdges(graph, ['core/b.ts -> core/a.ts', 'core/c.ts -> core/b.ts']))).toEqual(
      [],
    );
  });

  it('walks a long chain without running out of stack', () => {
    const edges: Record<string, string[]> = {};
    for (let i = 0; i < 20_000; i++) edges[`core/f${i}.ts`] = [`core/f${i + 1}.ts`];
    edges['core/f20000.ts'] = ['core/f0.ts'];
    const found = circles(graphOf(edges));
    expect(found).toHaveLength(1);
    expect(found[0]).toHaveLength(20_001);
  });
});

describe('reading imports from files', () => {
  const root = mkdtempSync(join(tmpdir(), 'floors-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write(
    'internal/path.ts',
    "import type { ShopError } from '../core/errors/index.js';\nexport const a = 1;\n",
  );
  write('core/errors/index.ts', "export { ShopError } from './shop-error.js';\n");
  write('core/errors/shop-error.ts', 'export class ShopError extends Error {}\n');
  write('core/lazy.ts', "export const load = () => import('./transport.js');\nimport 'ky';\n");
  write(
    'core/transport.ts',
    "import {\n  a,\n} from '../internal/path.js';\nexport * from './lazy.js';\nexport const b = a;\n",
  );

  it('reads static, type-only, re-export and dynamic imports, resolving .js and folder specifiers', () => {
    const graph = readImportGraph(root);
    expect(Object.fromEntries([...graph].map(([file, targets]) => [file, [...targets].sort()]))).toEqual({
      'core/errors/index.ts': ['core/errors/shop-error.ts'],
      'core/errors/shop-error.ts': [],
      'core/lazy.ts': ['core/transport.ts'],
      'core/transport.ts': ['core/lazy.ts', 'internal/path.ts'],
      'internal/path.ts': ['core/errors/index.ts'],
    });
    expect(upwardImports(graph)).toEqual([
      'internal/path.ts -> core/errors/index.ts (internal imports core)',
    ]);
    expect(refusedCircles(graph)).toEqual([
      'circle of 2 files:\n  core/lazy.ts -> core/transport.ts\n  core/transport.ts -> core/lazy.ts',
    ]);
  });

  it('refuses an import of a file that is not there', () => {
    write('core/broken.ts', "import { x } from './missing.js';\n");
    try {
      expect(() => readImportGraph(root)).toThrow(
        "core/broken.ts: the import of './missing.js' names no file",
      );
    } finally {
      rmSync(join(root, 'core/broken.ts'));
    }
  });
});

describe('src/', () => {
  const graph = readImportGraph(SRC);

  it('is read whole (the rules below are not passing on an empty graph)', () => {
    expect(graph.size).toBeGreaterThan(200);
    expect(graph.get('client.ts')).toContain('core/transport/transport.ts');
    expect(graph.get('generated/endpoints.ts')).toContain('generated/operation-schemas.range.ts');
  });

  it('places every file on a floor', () => {
    expect(unplacedFiles(graph)).toEqual([]);
  });

  it('has a README in every folder of a floor, saying that floor', () => {
    const missing: string[] = [];
    for (const floor of FLOORS) {
      for (const member of floor.members.filter((name) => name.endsWith('/'))) {
        const readme = join(SRC, member, 'README.md');
        const text = existsSync(readme) ? readFileSync(readme, 'utf8') : '';
        if (!text.includes(`Floor: ${floor.name}`))
          missing.push(`src/${member}README.md: no "Floor: ${floor.name}"`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('has no import pointing up the floors', () => {
    expect(upwardImports(graph)).toEqual([]);
  });

  it('has no circle but the client and resources/ pair (and those the pending imports still close)', () => {
    expect(
      refusedCircles(
        withoutEdges(
          graph,
          PENDING_EDGES.map((pending) => pending.edge),
        ),
      ),
    ).toEqual([]);
  });

  it('lists as pending only imports that are still there and still close a circle', () => {
    for (const { edge } of PENDING_EDGES) {
      const [from, to] = edge.split(' -> ') as [string, string];
      expect(graph.get(from)?.has(to) ?? false, `${edge} is gone: remove it from PENDING_EDGES`).toBe(true);
      const others = PENDING_EDGES.map((pending) => pending.edge).filter((other) => other !== edge);
      expect(
        refusedCircles(withoutEdges(graph, others)).some((circle) => circle.includes(edge)),
        `${edge} closes no circle: remove it from PENDING_EDGES`,
      ).toBe(true);
    }
  });
});
