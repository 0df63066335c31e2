// Each e2e file runs its own sandbox over real HTTP on 127.0.0.1, with clients whose every response is
// recorded and held to the spec. `useE2E()` wires the server into the file's hooks; `conformanceTest()` adds
// the file's last test: nothing the sandbox answered broke the spec.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ClientOptions, ShopClient } from '../../../src/index.js';
import { RETRY_BACKOFF, type TestOptions } from '../../../src/internal/test-hooks.js';
import {
  type CreateKeyOptions,
  createSandbox,
  type Sandbox,
  type SandboxOptions,
  type SandboxServer,
} from '../../../src/testing/index.js';
import { Recorder } from './recorder.js';
import { SpecValidator } from './spec.js';

/** The sandbox clock's start for every e2e file: seeded records and windows are the same on every run. */
export const START = '2026-10-01T15:20:00.000Z';

let sharedSpec: SpecValidator | undefined;
/** The parsed spec and its compiled validators, shared by the files of one worker. */
export function spec(): SpecValidator {
  sharedSpec ??= new SpecValidator();
  return sharedSpec;
}

/** What an e2e file works with. */
export interface E2E {
  readonly sandbox: Sandbox;
  readonly recorder: Recorder;
  /** `http://127.0.0.1:<port>` once the file's beforeAll has run. */
  readonly url: string;
  /** A client over real HTTP, recorded; `key` defaults to a full-access key. */
  client(options?: ClientOptions & TestOptions): ShopClient;
  /** Issues a key on the file's sandbox. */
  key(options?: CreateKeyOptions): string;
  /**
   * Another sandbox over HTTP, for a shop set up differently (memberships off, no card processing); its
   * answers go to the same recorder. Close it at the end of the test.
   */
  another(options: SandboxOptions): Promise<{ sandbox: Sandbox; client: ShopClient; close(): Promise<void> }>;
}

/**
 * Starts a sandbox for this file (Enterprise plan unless told otherwise, so a file's few hundred calls on a
 * frozen clock stay under the per-minute limit) and serves it on 127.0.0.1 for the file's tests.
 */
export function useE2E(options: SandboxOptions = {}): E2E {
  const sandbox = createSandbox({ now: START, plan: 'enterprise', ...options });
  const recorder = new Recorder(spec());
  let server: SandboxServer | undefined;
  beforeAll(async () => {
    server = await sandbox.listen();
  });
  afterAll(async () => {
    await server?.close();
  });
  return {
    sandbox,
    recorder,
    get url() {
      if (!server) throw new Error('the sandbox server starts in beforeAll');
      return server.url;
    },
    client(clientOptions: ClientOptions & TestOptions = {}) {
      if (!server) throw new Error('the sandbox server starts in beforeAll');
      const options: ClientOptions & TestOptions = {
        apiKey: sandbox.createKey(),
        baseUrl: server.url,
        fetch: recorder.fetch,
        logLevel: 'off',
        // Back-off in milliseconds: the retries are real, only shorter.
        [RETRY_BACKOFF]: { baseMs: 5, capMs: 20 },
        ...clientOptions,
      };
      return new ShopClient(options);
    },
    key: (keyOptions) => sandbox.createKey(keyOptions),
    async another(anotherOptions) {
      const other = createSandbox({ now: START, plan: 'enterprise', ...anotherOptions });
      const otherServer = await other.listen();
      const client = new ShopClient({
        apiKey: other.createKey(),
        baseUrl: otherServer.url,
        fetch: recorder.fetch,
        logLevel: 'off',
      });
      return { sandbox: other, client, close: () => otherServer.close() };
    },
  };
}

/** The file's last test: every response its clients received matches the spec's schema for it. */
export function conformanceTest(e2e: E2E, minimumOperations = 1): void {
  it("matches the spec's own JSON Schemas in every response this file received", () => {
    expect(e2e.recorder.exchanges.length).toBeGreaterThan(0);
    expect(e2e.recorder.violations()).toEqual([]);
    const operations = new Set(e2e.recorder.exchanges.map((exchange) => exchange.operationId));
    expect(operations.size).toBeGreaterThanOrEqual(minimumOperations);
  });
}

/** An hour-aligned ISO time `hours` after START's hour, `days` later. */
export function at(hours: number, days = 0): string {
  const start = Date.parse(START);
  const hour = start - (start % 3_600_000);
  return new Date(hour + days * 86_400_000 + hours * 3_600_000).toISOString();
}

/** The error a promise rejects with (fails the test if it resolves). */
export async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail, and it succeeded');
}
