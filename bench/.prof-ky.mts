import ky from 'ky';
import { startServer } from '/work/main/bench/support.js';
const server = await startServer({ WALK_RECORDS: '50000' });
const { baseUrl } = server;
const headers = { authorization: 'Bearer sk', accept: 'application/json' };
const api = ky.create({ headers, retry: 0, timeout: false, throwHttpErrors: false });
const mode = process.argv[2];
async function walk() {
  let cursor: string | null = null; let n = 0;
  for (;;) {
    const url = `${baseUrl}/v1/range/reservations?limit=20${cursor ? `&cursor=${cursor}` : ''}`;
    const body: any = mode === 'ky' ? await api.get(url).json() : await (await fetch(url, { headers })).json();
    n += body.data.length;
    if (!body.meta.has_more) return n;
    cursor = body.meta.next_cursor;
  }
}
await walk();
const { Session } = await import('node:inspector/promises');
const s = new Session(); s.connect(); await s.post('Profiler.enable'); await s.post('Profiler.start');
const t = performance.now(); await walk(); await walk(); console.log(mode, ((performance.now() - t) / 2).toFixed(0), 'ms');
const { profile } = await s.post('Profiler.stop') as any;
const self = new Map<string, number>(); const byId = new Map(profile.nodes.map((n: any) => [n.id, n]));
for (let i = 0; i < profile.samples.length; i++) { const n: any = byId.get(profile.samples[i]); const k = `${n.callFrame.functionName} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber}`; self.set(k, (self.get(k) ?? 0) + (profile.timeDeltas[i] ?? 0)); }
const tot = [...self.values()].reduce((a, b) => a + b, 0);
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log((100 * v / tot).toFixed(1) + '%', k);
await server.close?.(); process.exit(0);
