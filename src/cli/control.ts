import type { EventType } from '../generated/event-types.js';
import { processAccess, type SandboxProcessAccess } from '../testing/process-access.js';
import type { Sandbox } from '../testing/sandbox.js';
import { triggerList } from '../testing/triggers.js';
import { logStream } from './log-stream.js';
import { applyOverrides, type OverrideMap, overrideProblems } from './overrides.js';

/** The control surface of a `shop-mgmt sandbox` process: never under /v1, never part of the API. */
export const CONTROL_PREFIX = '/_sandbox/';

/**
 * Answers `/_sandbox/...` requests of the sandbox process (the routes docs/cli.md lists). Each needs a key
 * the sandbox accepts, as `Authorization: Bearer`.
 */
export class SandboxControl {
  readonly #access: SandboxProcessAccess;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly sandbox: Sandbox,
    private readonly ownKey: string,
    private readonly onChange: () => void,
  ) {
    this.#access = processAccess(sandbox);
  }

  async handle(request: Request): Promise<Response> {
    if (!this.#authorised(request)) {
      return answer(401, {
        error: 'the control surface needs a key this sandbox issued (Authorization: Bearer)',
      });
    }
    const path = new URL(request.url).pathname.slice(CONTROL_PREFIX.length);
    if (request.method === 'GET' && path === 'triggers') return answer(200, { triggers: triggerList() });
    if (request.method === 'GET' && path === 'logs') {
      return logStream(this.#access.activity, request.headers.get('last-event-id'));
    }
    if (request.method === 'POST' && path === 'trigger') {
      // One at a time: an armed override belongs to the trigger that armed it.
      const turn = this.#queue.then(() => this.#trigger(request));
      this.#queue = turn.catch(() => undefined);
      return turn;
    }
    return answer(404, { error: `no control route ${request.method} ${CONTROL_PREFIX}${path}` });
  }

  async #trigger(request: Request): Promise<Response> {
    const body = (await request.json().catch(() => null)) as { type?: unknown; override?: unknown } | null;
    const type = typeof body?.type === 'string' ? body.type : '';
    const known = triggerList().find((entry) => entry.type === type);
    const problems = known?.supported ? overrideProblems(type, body?.override) : [];
    if (problems.length > 0) return answer(400, { error: problems.join('\n'), invalid: true });
    const override = (body?.override ?? {}) as OverrideMap;
    if (!known?.supported) {
      return answer(422, {
        error: known
          ? `the sandbox cannot make ${type}: ${known.reason}`
          : `${JSON.stringify(type)} is not a known event type`,
        unsupported: true,
      });
    }
    // The trigger acts as the shop's staff: a key the API would refuse a change must not make one here.
    const missing = this.#access.shortOfFullKey(request.headers.get('authorization'));
    if (missing.length > 0) {
      return answer(403, {
        error: `trigger acts as the shop's staff (API calls, the register, the owner) and needs a full key: write on every resource at every location, as \`shop-mgmt sandbox\` prints without --permissions or --locations. This key lacks ${missing.join(', ')}`,
        forbidden: true,
      });
    }
    let overridden = false;
    if (Object.keys(override).length > 0) {
      this.#access.armOverride(
        type,
        (object) => applyOverrides(type as EventType, object, override),
        () => {
          overridden = true;
        },
      );
    }
    try {
      const { did, events } = await this.sandbox.trigger(type, { apiKey: this.ownKey });
      this.onChange();
      return answer(200, { type, did, events, overridden });
    } catch (error) {
      this.onChange();
      return answer(409, { error: `could not make ${type}: ${(error as Error).message}` });
    } finally {
      this.#access.disarmOverride();
    }
  }

  /** The key check of the API (failed attempts count toward its lockout), without a request's rate cost. */
  #authorised(request: Request): boolean {
    return this.#access.authenticate(request.headers.get('authorization'));
  }
}

function answer(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}
