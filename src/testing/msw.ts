import { type HttpHandler, http } from 'msw';

/**
 * msw handlers answering every request under `baseUrl` with the simulator core. A network fault
 * (`faults.next({ reset: true })`) is `Response.error()`, which msw turns into a network error.
 */
export function createHandlers(
  baseUrl: string,
  handle: (request: Request) => Promise<Response>,
): HttpHandler[] {
  return [http.all(`${baseUrl}/*`, ({ request }) => handle(request))];
}
