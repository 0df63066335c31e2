// Runs webhooks/hono-worker.ts in workerd through miniflare, as `wrangler dev` would: bundled by esbuild,
// the secret as a binding, served over HTTP on 127.0.0.1:PORT. The Worker's console output reaches stdout.
//
// Run: SHOP_WEBHOOK_SECRET=whsec_... PORT=8787 npx tsx harness/run-worker.ts
import { build } from 'esbuild';
import { Log, LogLevel, Miniflare } from 'miniflare';

const bundle = await build({
  entryPoints: [new URL('../webhooks/hono-worker.ts', import.meta.url).pathname],
  bundle: true,
  write: false,
  format: 'esm',
  platform: 'neutral',
  conditions: ['workerd', 'worker', 'browser'],
  mainFields: ['module', 'main'],
  external: ['node:*'],
});
const mf = new Miniflare({
  modules: true,
  script: bundle.outputFiles[0]?.text ?? '',
  compatibilityDate: '2025-09-01',
  compatibilityFlags: ['nodejs_compat'],
  bindings: { SHOP_WEBHOOK_SECRET: process.env.SHOP_WEBHOOK_SECRET ?? '' },
  host: '127.0.0.1',
  port: Number(process.env.PORT ?? 8787),
  log: new Log(LogLevel.INFO),
});
await mf.ready;
console.log('listening');
process.once('SIGTERM', () => void mf.dispose().then(() => process.exit(0)));
