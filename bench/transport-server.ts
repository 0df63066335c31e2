/**
 * The loopback server of bench/transport.ts and bench/walk.ts, run in its own process so that its work does
 * not share the client's event loop. Prints its port on stdout once it listens.
 *
 *   GET /v1/range/reservations/{id}                 one reservation (~0.8 kB)
 *   GET /v1/range/reservations?limit=N[&cursor=c_K]  page K of a list of WALK_RECORDS (default 50,000)
 *                                                    reservations, N a page; next_cursor c_{K+1} until the end
 *
 * A page's records are built once per page size (the same N records on every page: parsing and validating
 * them costs the same); only `meta` differs from page to page.
 */
import { createServer } from 'node:http';
import { listEnvelope, recordEnvelope } from './transport-fixture.js';

const total = Number(process.env.WALK_RECORDS ?? 50_000);
const one = Buffer.from(recordEnvelope());
const pages = new Map<number, Buffer>();

/** The envelope of an N-item page up to `"meta":` (its data), built once per N. */
function pageData(limit: number): Buffer {
  let data = pages.get(limit);
  if (!data) {
    const text = listEnvelope(limit);
    data = Buffer.from(text.slice(0, text.indexOf('"meta":') + '"meta":'.length));
    pages.set(limit, data);
  }
  return data;
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  let chunks: Buffer[];
  if (url.pathname === '/v1/range/reservations') {
    const limit = Math.min(200, Math.max(1, Number(url.searchParams.get('limit') ?? 20)));
    const index = Number(url.searchParams.get('cursor')?.slice(2) ?? 0);
    const more = (index + 1) * limit < total;
    const meta = JSON.stringify({ limit, has_more: more, next_cursor: more ? `c_${index + 1}` : null });
    chunks = [pageData(limit), Buffer.from(`${meta}}`)];
  } else {
    chunks = [one];
  }
  res.writeHead(200, {
    'content-type': 'application/json',
    'content-length': chunks.reduce((sum, chunk) => sum + chunk.length, 0),
    'x-ratelimit-limit': '600',
    'x-ratelimit-remaining': '599',
    'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 60),
  });
  for (const chunk of chunks.slice(0, -1)) res.write(chunk);
  res.end(chunks.at(-1));
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('disconnect', () => server.close(() => process.exit(0)));
