import type { http as mswHttp } from 'msw';
import { SandboxUsageError } from './errors.js';

/**
 * The msw handlers behind `sandbox.handlers`, typed without naming msw: `never` passes wherever msw expects
 * a handler (`setupServer(...sandbox.handlers)`, `server.use(...)`), and the declaration files of
 * `shop-mgmt/testing` do not import msw, an optional peer. `shop-mgmt/testing/msw` gives msw's own type.
 */
export type SandboxHandlers = readonly never[];

interface NodeModuleBuiltin {
  createRequire(from: string): (id: string) => unknown;
}
interface ProcessLike {
  cwd?: () => string;
  getBuiltinModule?: (id: string) => unknown;
}

/**
 * Loads msw on first use instead of importing it, so `shop-mgmt/testing` works without msw installed
 * (msw is an optional peer: only `sandbox.handlers` needs it). It is resolved from the project, the way
 * a peer dependency is; where the runtime cannot load it synchronously, use `shop-mgmt/testing/msw`.
 */
function loadHttp(): typeof mswHttp {
  const proc = (globalThis as { process?: ProcessLike }).process;
  const nodeModule = proc?.getBuiltinModule?.('node:module') as NodeModuleBuiltin | undefined;
  if (!nodeModule || !proc?.cwd) {
    throw new SandboxUsageError(
      'sandbox.handlers loads msw through node:module, which this runtime lacks: use ' +
        "sandboxHandlers(sandbox) from 'shop-mgmt/testing/msw', which imports msw for your bundler",
    );
  }
  const bases = [`${proc.cwd()}/`, typeof __filename === 'string' ? __filename : null];
  let lastError: unknown;
  for (const base of bases) {
    if (base === null) continue;
    try {
      return (nodeModule.createRequire(base)('msw') as { http: typeof mswHttp }).http;
    } catch (error) {
      lastError = error;
    }
  }
  throw new SandboxUsageError('sandbox.handlers needs msw 2 installed in your project (npm install -D msw)', {
    cause: lastError,
  });
}

/**
 * msw handlers answering every request under `baseUrl` with the sandbox. A network fault
 * (`faults.next({ reset: true })`) is `Response.error()`, which msw turns into a network error.
 */
export function createHandlers(
  baseUrl: string,
  handle: (request: Request) => Promise<Response>,
): SandboxHandlers {
  const http = loadHttp();
  return [http.all(`${baseUrl}/*`, ({ request }) => handle(request))] as unknown as SandboxHandlers;
}
