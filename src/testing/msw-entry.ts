/**
 * The sandbox as msw handlers with msw's own types. It imports msw (an optional peer
 * of shop-mgmt) statically, so a bundler for Workers or browsers resolves it; `shop-mgmt/testing` itself
 * neither loads nor names msw.
 *
 * @module shop-mgmt/testing/msw
 */

import { type HttpHandler, http } from 'msw';
import type { Sandbox } from './sandbox.js';

/**
 * msw handlers answering every request under `sandbox.baseUrl` with the sandbox:
 * `setupServer(...sandboxHandlers(sandbox))` in Node, `setupWorker(...)` in a browser. A network fault
 * (`faults.next({ reset: true })`) is `Response.error()`, which msw turns into a network error.
 *
 * @example
 * const sandbox = createSandbox();
 * const server = setupServer(...sandboxHandlers(sandbox));
 */
export function sandboxHandlers(sandbox: Sandbox): HttpHandler[] {
  return [http.all(`${sandbox.baseUrl}/*`, ({ request }) => sandbox.handle(request))];
}
