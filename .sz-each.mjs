import * as esbuild from 'esbuild';
import { gzipSync } from 'node:zlib';
import { writeFileSync } from 'node:fs';
writeFileSync('/work/main/.sz-app.ts', "import { ShopClient } from './src/index.js';\nconst shop = new ShopClient({ apiKey: 'k' });\nawait shop.me.retrieve();\n");
async function build(drop) {
  return esbuild.build({ entryPoints: ['/work/main/.sz-app.ts'], bundle: true, minify: true, format: 'esm', splitting: true, outdir: '/tmp/sz/o', write: false, platform: 'neutral', mainFields: ['module','main'], metafile: true, logLevel: 'silent',
    plugins: [{ name: 'drop', setup(b) { b.onLoad({ filter: /.*/ }, (a) => a.path === drop ? ({ contents: '', loader: 'ts' }) : undefined); } }] });
}
const gz = (r) => gzipSync(r.outputFiles.find((f) => f.path.endsWith('.sz-app.js')).contents, { level: 9 }).length;
const base = await build(null);
const b = gz(base);
console.log('base', b);
const main = Object.values(base.metafile.outputs).find((o) => o.entryPoint?.endsWith('.sz-app.ts'));
const rows = [];
for (const [p, v] of Object.entries(main.inputs)) {
  if (v.bytesInOutput < 300) continue;
  const abs = p.startsWith('/') ? p : '/work/main/' + p;
  try { rows.push([b - gz(await build(abs)), v.bytesInOutput, p]); } catch { rows.push(['err', v.bytesInOutput, p]); }
}
rows.sort((x, y) => y[1] - x[1]).forEach((r) => console.log(String(r[0]).padStart(6), String(r[1]).padStart(7), r[2]));
