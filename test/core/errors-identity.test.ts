// `instanceof` across two copies of the SDK's error classes (the ESM and the CJS build in one process, or two
// bundles): a second copy is made here by loading the modules again after vi.resetModules(). The packed
// package's ESM-against-CJS case runs in scripts/check-package.sh (test/package/identity.mjs).
import { describe, expect, it, vi } from 'vitest';

async function copyOfErrors() {
  vi.resetModules();
  const core = await import('../../src/core/errors/index.js');
  const webhooks = await import('../../src/webhooks/errors.js');
  return { ...core, ...webhooks };
}

const apiInit = (status: number) => ({
  status,
  code: null,
  message: `HTTP ${status}`,
  details: {},
  headers: new Headers(),
});

describe('error classes of two copies of the SDK', () => {
  it('are distinct classes, yet an error of one is an instance of the same class of the other', async () => {
    const one = await copyOfErrors();
    const two = await copyOfErrors();
    expect(two.NotFoundError).not.toBe(one.NotFoundError);

    const notFound = new two.NotFoundError(apiInit(404));
    expect(notFound instanceof one.NotFoundError).toBe(true);
    expect(notFound instanceof one.ShopApiError).toBe(true);
    expect(notFound instanceof one.ShopError).toBe(true);
    expect(notFound instanceof Error).toBe(true);

    const timeout = new two.TimeoutError(1_000);
    expect(timeout instanceof one.TimeoutError).toBe(true);
    expect(timeout instanceof one.ConnectionError).toBe(true);
  });

  it('never makes an error an instance of a sibling or a subclass of its own class', async () => {
    const one = await copyOfErrors();
    const two = await copyOfErrors();
    const notFound = new two.NotFoundError(apiInit(404));
    expect(notFound instanceof one.ConflictError).toBe(false);
    expect(notFound instanceof one.ConnectionError).toBe(false);
    expect(new two.ShopApiError(apiInit(410)) instanceof one.NotFoundError).toBe(false);
    expect(new two.ConnectionError('reset') instanceof one.TimeoutError).toBe(false);
    expect(
      new two.WebhookVerificationError('signature_mismatch', 'no match') instanceof one.ShopApiError,
    ).toBe(false);
  });

  it('leaves a plain Error and look-alikes out, and a subclass of the caller its own', async () => {
    const one = await copyOfErrors();
    const fake = Object.assign(new Error('x'), { name: 'NotFoundError', status: 404 });
    expect(fake instanceof one.NotFoundError).toBe(false);
    expect(fake instanceof one.ShopError).toBe(false);
    class MyError extends one.ShopError {}
    const mine = new MyError('mine');
    expect(mine instanceof MyError).toBe(true);
    expect(mine instanceof one.ShopError).toBe(true);
    expect(new one.ShopError('plain') instanceof MyError).toBe(false);
  });
});
