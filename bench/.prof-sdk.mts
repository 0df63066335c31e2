import ky from 'ky';
import { ShopClient } from 'shop-mgmt';
const me = JSON.stringify({ status: 'ok', data: { object: 'api_key', id: 'key_1', name: 'k', permissions: ['range:read'], plan: 'established', location_ids: [1], created_at: '2026-01-01T00:00:00Z' } });
const fakeFetch = async () => new Response(me, { status: 200, headers: { 'content-type': 'application/json', 'content-length': String(me.length) } });
globalThis.fetch = fakeFetch as any;
const shop = new ShopClient({ apiKey: 'sk_test', baseUrl: 'http://127.0.0.1:9', logLevel: 'off' });
const api = ky.create({ retry: 0, timeout: false, throwHttpErrors: false });
const N = 20000;
async function run(name: string, fn: () => Promise<unknown>) {
  for (let i = 0; i < 2000; i++) await fn();
  const t = performance.now();
  for (let i = 0; i < N; i++) await fn();
  return (performance.now() - t) * 1000 / N;
}
const sdk = () => shop.me.retrieve();
const kyc = () => api.get('http://127.0.0.1:9/v1/me', { headers: { authorization: 'Bearer sk_test' } }).json();
const fetchc = async () => (await fakeFetch()).json();
for (let r = 0; r < 5; r++) {
  const a = await run('sdk', sdk), b = await run('ky', kyc), c = await run('fetch', fetchc);
  console.log(`sdk ${a.toFixed(1)} us  ky ${b.toFixed(1)} us  bare ${c.toFixed(1)} us  sdk-ky ${(a - b).toFixed(1)} us`);
}
if (process.argv[2] === 'prof') {
  const { Session } = await import('node:inspector/promises');
  const s = new Session(); s.connect(); await s.post('Profiler.enable'); await s.post('Profiler.start');
  await run('sdk', sdk);
  const { profile } = await s.post('Profiler.stop') as any;
  const self = new Map<string, number>(); const byId = new Map(profile.nodes.map((n: any) => [n.id, n]));
  for (let i = 0; i < profile.samples.length; i++) { const n: any = byId.get(profile.samples[i]); const k = `${n.callFrame.functionName} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber}`; self.set(k, (self.get(k) ?? 0) + (profile.timeDeltas[i] ?? 0)); }
  const tot = [...self.values()].reduce((a, b) => a + b, 0);
  for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 45)) console.log((100 * v / tot).toFixed(1) + '%', k);
}
