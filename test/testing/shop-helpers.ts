import type { SandboxOptions } from '../../src/testing/index.js';
import { call, listAll, newSandbox } from './helpers.js';

/** A sandbox whose events are all recorded (an endpoint subscribes to every type), with a full key. */
export function withFeed(options: SandboxOptions = {}) {
  const sandbox = newSandbox(options);
  sandbox.webhooks.addEndpoint({ url: 'https://hooks.sandbox.invalid/all', types: ['*'] });
  const key = sandbox.createKey();
  /** Every event so far (optionally of one type), oldest first. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
  const events = async (type?: string): Promise<any[]> =>
    listAll(sandbox, `/v1/events?limit=200${type ? `&type=${type}` : ''}`, key);
  return { sandbox, key, events };
}

let counter = 0;

/** A fresh Idempotency-Key header. */
export function idempotent(): Record<string, string> {
  counter += 1;
  return { 'Idempotency-Key': `test-${counter}-${Math.random().toString(16).slice(2)}` };
}

/** GET helper returning `data` of a 200 answer. */
export async function getData(sandbox: ReturnType<typeof newSandbox>, path: string, key: string) {
  const res = await call(sandbox, 'GET', path, { key });
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.json)}`);
  return res.json.data;
}
