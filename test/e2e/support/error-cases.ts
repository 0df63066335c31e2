// The error tables' shared shape and check: a request that provokes one code, and what the SDK must raise.

import { expect } from 'vitest';
import type { ErrorCode } from '../../../src/generated/error-codes.js';
import type { ShopApiError, ShopClient } from '../../../src/index.js';
import { type E2E, failure } from './harness.js';

/** One error the sandbox can answer, and the request that provokes it. */
export interface ErrorCase {
  readonly code: string;
  readonly status: number;
  readonly errorClass: abstract new (...args: never[]) => ShopApiError;
  /** What the error's details must contain. */
  readonly details?: Record<string, unknown>;
  /** The client to call with (default: a full-access key). */
  readonly client?: (e2e: E2E) => ShopClient;
  /** Puts the shop in the state the case needs; returns how to undo it. */
  readonly arrange?: (e2e: E2E) => () => void;
  readonly call: (shop: ShopClient) => Promise<unknown>;
}

/**
 * Runs one case and checks the error class, status, code and details, and that the envelope crossed the
 * wire (the last recorded exchange), so a local refusal by the SDK cannot pass for the server's answer.
 */
export async function expectErrorCase(e2e: E2E, errorCase: ErrorCase): Promise<void> {
  const undo = errorCase.arrange?.(e2e);
  try {
    const shop = errorCase.client?.(e2e) ?? e2e.client();
    const error = await failure(errorCase.call(shop));

    expect(error).toBeInstanceOf(errorCase.errorClass);
    expect(error).toMatchObject({ status: errorCase.status, code: errorCase.code });
    if (errorCase.details) expect((error as ShopApiError).details).toMatchObject(errorCase.details);
    expect((error as ShopApiError).is(errorCase.code as ErrorCode)).toBe(true);
    const last = e2e.recorder.exchanges.at(-1)!;
    expect(last.status).toBe(errorCase.status);
    expect(last.body).toMatchObject({ status: 'error', error: { code: errorCase.code } });
  } finally {
    undo?.();
  }
}
