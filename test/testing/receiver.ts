import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedDelivery {
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A real webhook receiver on 127.0.0.1 that answers each delivery with the next scripted status (then 200),
 * or hangs when the script says 'hang', and records what it received.
 */
export async function startReceiver(script: (number | 'hang' | { redirect: string })[] = []) {
  const received: ReceivedDelivery[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const next = script.shift() ?? 200;
      if (next === 'hang') return;
      if (typeof next === 'object') {
        res.writeHead(302, { Location: next.redirect }).end();
        return;
      }
      res.writeHead(next, { 'Content-Type': 'text/plain' }).end(next < 300 ? 'ok' : 'nope');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
