// A loopback server that answers like the API, for the package smoke test.
import { createServer } from 'node:http';

/** Starts the server; resolves to { url, requests, close }. */
export function startServer() {
  const requests = [];
  const server = createServer((req, res) => {
    requests.push({ method: req.method, url: req.url, authorization: req.headers.authorization });
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ status: 'ok', data: { object: 'me', id: 1, name: 'Smoke Test Shop' } }));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({ url: `http://127.0.0.1:${port}`, requests, close: () => server.close() });
    });
  });
}
