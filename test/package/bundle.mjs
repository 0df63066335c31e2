// shop-mgmt/testing bundles for Workers and browsers: esbuild (path in ESBUILD) bundles the installed entry for
// platform browser and neutral with `node:*` left to the runtime, and the only `node:` module the bundle
// names is loaded lazily (a dynamic import behind sandbox.listen()), never at the top level.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

const esbuild = createRequire(import.meta.url)(process.env.ESBUILD);
const source = [
  "import { createSandbox } from 'shop-mgmt/testing';",
  "import { ShopClient } from 'shop-mgmt';",
  'const sandbox = createSandbox({ seed: 1 });',
  'export const shop = new ShopClient({ apiKey: sandbox.createKey(), baseUrl: sandbox.baseUrl, fetch: sandbox.fetch });',
].join('\n');

for (const platform of ['browser', 'neutral']) {
  const result = await esbuild.build({
    stdin: { contents: source, resolveDir: process.cwd(), loader: 'js' },
    bundle: true,
    write: false,
    format: 'esm',
    platform,
    mainFields: ['browser', 'module', 'main'],
    external: ['node:*'],
    logLevel: 'silent',
    metafile: true,
  });
  const output = result.outputFiles[0].text;
  const staticNode = output.match(/^import .* from ["']node:[^"']+["'];?$/gm) ?? [];
  assert.deepEqual(staticNode, [], `${platform}: top-level node: imports`);
  const bare = output.match(/(?:from |import\()["'](?:http|net|crypto|module)["']/g) ?? [];
  assert.deepEqual(bare, [], `${platform}: node builtins without the node: prefix`);
  assert.match(output, /import\(["']node:http["']\)/, `${platform}: node:http is not loaded lazily`);
  console.log(`bundle (${platform}): ok, ${(output.length / 1024).toFixed(0)} kB, node:http lazy`);
}
