/**
 * The loopback server of bench/transport.ts, run in its own process so that its work does not share the
 * client's event loop. Prints the port on stdout once it listens.
 */
import { createServer } from 'node:http';
import { listEnvelope, recordEnvelope } from './transport-fixture.js';

const big = Buffer.from(listEnvelope(200));
const small = Buffer.from(recordEnvelope());

const server = createServer((req, res) => {
  const body = req.url?.startsWith('/v1/range/reservations?') ? big : small;
  res.writeHead(200, {
    'content-type': 'application/json',
    'content-length': body.length,
    'x-ratelimit-limit': '600',
    'x-ratelimit-remaining': '599',
    'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 60),
  });
  res.end(body);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(
    `${typeof address === 'object' && address ? address.port : 0} ${big.length} ${small.length}\n`,
  );
});
process.on('disconnect', () => server.close(() => process.exit(0)));
