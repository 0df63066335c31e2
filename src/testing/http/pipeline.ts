import type { ErrorCode } from '../../generated/error-codes.js';
import { keyPrefix, operationOf } from '../activity.js';
import { apiError, SandboxApiError, validationError } from '../errors.js';
import { noteWrites } from '../state/table.js';
import type { SandboxWorld } from '../world.js';
import type { Fault } from './faults.js';
import { fingerprintOf, type StoredResponse } from './idempotency.js';
import { type ApiKey, requirePermission } from './keys.js';
import { errorAnswer, jsonAnswer, successText } from './respond.js';
import type { RouteDefinition, SandboxAnswer, SandboxRequest } from './route.js';
import type { RouteTable } from './route-table.js';

/** Where the caller's IP comes from when the request does not say (the HTTP server passes the socket's). */
export type { SandboxAnswer, SandboxRequest } from './route.js';

export interface ClientInfo {
  readonly ip?: string;
  /**
   * Where a large body's bytes are written (a buffer of at least `length` bytes), for a server that reuses
   * its buffers once written; by default a new Uint8Array.
   */
  readonly allocate?: (length: number) => Uint8Array;
}

/** The header the sandbox takes the caller's IP from, before the socket address. */
export const CLIENT_IP_HEADER = 'X-Forwarded-For';

const SUBSCRIPTION_CODES: Record<string, ErrorCode> = {
  api_not_in_plan: 'API_NOT_IN_PLAN',
  trial_expired: 'TRIAL_EXPIRED',
  billing_past_due: 'BILLING_PAST_DUE',
  subscription_canceled: 'SUBSCRIPTION_CANCELED',
  plan_required: 'PLAN_REQUIRED',
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The sandbox as one function: one web Request in, one Response out. msw handlers and `sandbox.fetch` call
 * this; the HTTP server calls `answerRequest`. A network fault is returned as `Response.error()`.
 */
export async function handleRequest(
  world: SandboxWorld,
  routeTable: RouteTable,
  request: Request,
  info: ClientInfo = {},
): Promise<Response> {
  const answer = await answerRequest(world, routeTable, request, info);
  if (answer === null) return Response.error();
  return new Response(answer.body as BodyInit, { status: answer.status, headers: answer.headers });
}

/** `handleRequest` without the web Response: the answer, or null for a dropped connection (a fault). */
export async function answerRequest(
  world: SandboxWorld,
  routeTable: RouteTable,
  request: SandboxRequest,
  info: ClientInfo = {},
): Promise<SandboxAnswer | null> {
  const started = performance.now();
  const method = request.method.toUpperCase();
  const url = new URL(request.url);
  const path = url.pathname;
  const answered = await answer(world, routeTable, request, method, url, info);
  world.activity.add({
    kind: 'request',
    at: new Date().toISOString(),
    method,
    path,
    // A dropped connection is logged as the error Response it is to fetch: status 0.
    status: answered?.status ?? 0,
    durationMs: Math.round(performance.now() - started),
    operationId: operationOf(method, path),
    keyPrefix: keyPrefix(request.headers.get('Authorization')),
    idempotencyKey: method === 'POST' ? request.headers.get('Idempotency-Key') : null,
    replayed: answered?.headers['idempotent-replayed'] === 'true',
  });
  return answered;
}

async function answer(
  world: SandboxWorld,
  routeTable: RouteTable,
  request: SandboxRequest,
  method: string,
  url: URL,
  info: ClientInfo,
): Promise<SandboxAnswer | null> {
  world.clock.runDue();
  const path = url.pathname;
  const fault = world.faults.take(method, path);
  // A 'before' fault that fails the request never reaches the shop: it is slow, then fails, and holds no
  // Idempotency-Key. A plain 'before' delay is a slow shop instead: it is held inside serve().
  if (fault && fault.when === 'before' && (fault.reset || fault.status !== null)) {
    if (fault.delayMs > 0) await sleep(fault.delayMs);
    if (fault.reset) return null;
    if (fault.status !== null) return serverError(fault.status);
  }
  const forwarded = request.headers.get(CLIENT_IP_HEADER)?.split(',')[0]?.trim();
  const ip = forwarded || info.ip || '127.0.0.1';
  const slowMs = fault?.when === 'before' ? fault.delayMs : 0;
  const answered = await serve(
    world,
    routeTable,
    request,
    method,
    url,
    ip,
    fault?.when === 'after' ? fault : null,
    slowMs,
    info.allocate,
  );
  // With autoDeliver, retries the clock has reached go out now too, not only what this request recorded.
  world.deliveries.deliverSoon();
  return answered;
}

/**
 * A slow shop: the request is held where the route would run, after its Idempotency-Key is claimed, so a
 * concurrent retry meets IDEMPOTENCY_IN_PROGRESS.
 */
class SlowDown {
  private pendingMs: number;
  constructor(ms: number) {
    this.pendingMs = ms;
  }
  async hold(): Promise<void> {
    const ms = this.pendingMs;
    this.pendingMs = 0;
    if (ms > 0) await sleep(ms);
  }
}

async function serve(
  world: SandboxWorld,
  routeTable: RouteTable,
  request: SandboxRequest,
  method: string,
  url: URL,
  ip: string,
  fault: Fault | null,
  slowMs: number,
  allocate: ClientInfo['allocate'],
): Promise<SandboxAnswer | null> {
  const slow = new SlowDown(slowMs);
  let key: ApiKey;
  let rateHeaders: Record<string, string>;
  try {
    key = world.keys.authenticate(request.headers.get('Authorization'), ip);
  } catch (error) {
    await slow.hold();
    return errorAnswer(asApiError(error));
  }
  try {
    rateHeaders = world.rateLimiter.take();
  } catch (error) {
    await slow.hold();
    return errorAnswer(asApiError(error), world.rateLimiter.headers());
  }
  let idempotency: { key: string } | null = null;
  let answered: SandboxAnswer;
  try {
    const prepared = await prepare(world, routeTable, request, method, url.pathname, ip, key);
    const replay = prepared.idempotencyKey
      ? world.idempotency.begin(key.id, prepared.idempotencyKey, prepared.fingerprint)
      : null;
    if (replay) {
      await slow.hold();
      return withHeaders(fromStored(replay), rateHeaders, { 'idempotent-replayed': 'true' });
    }
    if (prepared.idempotencyKey) idempotency = { key: prepared.idempotencyKey };
    await slow.hold();
    answered = await run(world, prepared, method, url, key, allocate);
  } catch (error) {
    await slow.hold();
    answered = errorAnswer(asApiError(error));
  }
  if (fault && fault.delayMs > 0) await sleep(fault.delayMs);
  if (idempotency) {
    const stored = toStored(answered);
    if (stored.status >= 500) world.idempotency.abandon(key.id, idempotency.key);
    else world.idempotency.complete(key.id, idempotency.key, stored);
  }
  if (fault?.reset) return null;
  if (fault && fault.status !== null) return serverError(fault.status);
  return withHeaders(answered, rateHeaders);
}

interface PreparedRequest {
  readonly route: RouteDefinition;
  readonly params: Record<string, string>;
  readonly body: Record<string, unknown>;
  readonly idempotencyKey: string | null;
  readonly fingerprint: string;
}

/** Every check that comes before a route runs, in the order the service applies them. */
async function prepare(
  world: SandboxWorld,
  routeTable: RouteTable,
  request: SandboxRequest,
  method: string,
  path: string,
  ip: string,
  key: ApiKey,
): Promise<PreparedRequest> {
  world.keys.checkIp(key, ip);
  const subscription = world.state.shop.settings.subscription;
  if (subscription !== 'active') {
    const code = SUBSCRIPTION_CODES[subscription]!;
    throw apiError(code, `The shop's subscription needs attention (${subscription})`);
  }
  if ((path === '/v1/range' || path.startsWith('/v1/range/')) && !world.state.shop.settings.rangeAddon) {
    throw apiError('RANGE_ADDON_REQUIRED', 'This shop does not have the Range add-on');
  }
  const match = routeTable.match(method, path);
  if (match.kind === 'not_found') throw apiError('NOT_FOUND', `No endpoint ${path}`);
  if (match.kind === 'method_not_allowed') {
    throw apiError('METHOD_NOT_ALLOWED', `${method} is not allowed on ${path}`, {
      allowed: match.allowed,
    });
  }
  const { route, params } = match;
  if (route.permission) requirePermission(key, route.permission);
  const body = await readBody(request);
  const idempotencyKey = method === 'POST' ? request.headers.get('Idempotency-Key') : null;
  if (idempotencyKey !== null && idempotencyKey.length > 100) {
    throw validationError({ 'Idempotency-Key': ['must be at most 100 characters'] });
  }
  if (method === 'POST' && !idempotencyKey && route.idempotency === 'required') {
    throw apiError('IDEMPOTENCY_KEY_REQUIRED', 'This call moves a balance: send an Idempotency-Key');
  }
  return {
    route,
    params,
    body,
    idempotencyKey: idempotencyKey || null,
    fingerprint: fingerprintOf(method, path, body),
  };
}

async function run(
  world: SandboxWorld,
  prepared: PreparedRequest,
  method: string,
  url: URL,
  key: ApiKey,
  allocate: ClientInfo['allocate'],
): Promise<SandboxAnswer> {
  // A write may change records in place: the tables' list indexes re-check their rows before the next
  // lookup (noted before and after, since a handler may wait between its checks and its changes).
  const writes = method !== 'GET';
  if (writes) noteWrites();
  const result = await prepared.route.handle({
    sandbox: world,
    key,
    params: prepared.params,
    query: url.searchParams,
    body: prepared.body,
    now: world.clock.iso(),
  });
  if (writes) noteWrites();
  return jsonAnswer(result.status, successText(result, allocate));
}

async function readBody(request: SandboxRequest): Promise<Record<string, unknown>> {
  const text = await request.text();
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw validationError({ body: ['must be valid JSON'] });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw validationError({ body: ['must be a JSON object'] });
  }
  return parsed as Record<string, unknown>;
}

function asApiError(error: unknown): SandboxApiError {
  if (error instanceof SandboxApiError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return apiError('SERVER_ERROR', `The sandbox failed: ${message}`);
}

function serverError(status: number): SandboxAnswer {
  // The fault's own status (any 5xx the test asked for), not the table's 500.
  return errorAnswer(apiError('SERVER_ERROR', 'Injected server fault (sandbox.faults)'), {}, status);
}

const decoder = new TextDecoder();

function toStored(answer: SandboxAnswer): StoredResponse {
  const body = typeof answer.body === 'string' ? answer.body : decoder.decode(answer.body);
  return { status: answer.status, headers: Object.entries(answer.headers), body };
}

function fromStored(stored: StoredResponse): SandboxAnswer {
  return { status: stored.status, headers: Object.fromEntries(stored.headers), body: stored.body };
}

/** The answer with `extra` headers added (names in lower case; a later one wins). */
function withHeaders(answer: SandboxAnswer, ...extra: Readonly<Record<string, string>>[]): SandboxAnswer {
  const headers = { ...answer.headers };
  for (const set of extra)
    for (const [name, value] of Object.entries(set)) headers[name.toLowerCase()] = value;
  return { status: answer.status, headers, body: answer.body };
}
