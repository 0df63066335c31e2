import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildModel } from '../../scripts/generator/model.js';
import { readResourceMethods, renderResourcesDoc } from '../../scripts/generator/resources-doc.js';
import { loadSpec } from '../../scripts/generator/spec.js';
import { operations } from '../../src/generated/operations.js';
import { ShopClient } from '../../src/index.js';

const methods = readResourceMethods(fileURLToPath(new URL('../..', import.meta.url)));

describe('generated resource methods against the operation table', () => {
  it('map one method to each operation, named as the operationId ends', () => {
    expect(methods.map((method) => method.operationId).sort()).toEqual(Object.keys(operations).sort());
    for (const method of methods) expect(method.operationId.split('.').at(-1)).toBe(method.name);
  });

  it('reach every operation from a client by its id as an accessor path', () => {
    const shop = new ShopClient({ apiKey: 'sk_test_docs', baseUrl: 'http://127.0.0.1:9' });
    for (const id of Object.keys(operations)) {
      const parts = id.split('.');
      let target: unknown = shop;
      for (const part of parts.slice(0, -1)) target = (target as Record<string, unknown>)[part];
      expect(typeof (target as Record<string, unknown>)[parts.at(-1)!], id).toBe('function');
    }
  });
});

describe('docs/resources.md', () => {
  it('is what `npm run generate` renders from the spec and the classes (run it after changing the spec)', async () => {
    const doc = await loadSpec(fileURLToPath(new URL('../../spec/openapi.yaml', import.meta.url)));
    expect(readFileSync('docs/resources.md', 'utf8')).toBe(
      renderResourcesDoc(methods, buildModel(doc).operations),
    );
  });
});
