// The verify-only webhooks entry loads the error classes; they must not pull in the HTTP client or zod.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as coreErrors from '../../src/core/errors/index.js';
import { isShopError, ShopError } from '../../src/core/errors/index.js';
import * as webhookErrors from '../../src/webhooks/errors.js';
import { WebhookVerificationError } from '../../src/webhooks/errors.js';

// Every error class of the SDK: core's and the webhooks folder's (src/index.ts exports both).
const errors = { ...coreErrors, ...webhookErrors };

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

/** Every bare package a module reaches through its static imports (type-only imports skipped). */
function packagesReachedFrom(entry: string): Set<string> {
  const packages = new Set<string>();
  const visited = new Set<string>();
  const visit = (file: string) => {
    if (visited.has(file)) return;
    visited.add(file);
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(/^(?:import|export)\s+(?!type\b)[^'"]*?from\s+'([^']+)'/gm)) {
      const specifier = match[1] ?? '';
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
      else packages.add(specifier);
    }
  };
  visit(entry);
  return packages;
}

describe('src/core/errors', () => {
  it('imports neither zod, ky nor p-retry, so the webhooks entry can load it alone', () => {
    for (const module of ['core/errors/index.ts', 'webhooks/errors.ts']) {
      const packages = packagesReachedFrom(resolve(SRC, module));
      expect(
        [...packages].filter((name) => /^(zod|ky|p-retry)(\/|$)/.test(name)),
        module,
      ).toEqual([]);
    }
  });

  it('roots WebhookVerificationError under ShopError', () => {
    const error = new WebhookVerificationError('signature_mismatch', 'no match');
    expect(error).toBeInstanceOf(ShopError);
    expect(isShopError(error)).toBe(true);
    expect(isShopError(new Error('plain'))).toBe(false);
  });

  it('exports every error class, each named by a literal (so a minifier renaming classes keeps the names)', () => {
    const init = { status: 400, code: null, message: 'm', details: {}, headers: new Headers() };
    const classes = Object.entries(errors as Record<string, unknown>).filter(
      (entry): entry is [string, new (...args: never[]) => Error] =>
        typeof entry[1] === 'function' && /^[A-Z]\w*Error$/.test(entry[0]),
    );
    expect(classes.map(([name]) => name)).toContain('WebhookConfigurationError');
    for (const [name, ErrorClass] of classes) {
      const Construct = ErrorClass as unknown as new (...args: unknown[]) => Error;
      const error =
        name === 'ResponseValidationError'
          ? new Construct('op', [], 200, new Headers())
          : name === 'InvalidResponseError' || name === 'ResponseTooLargeError' || name === 'RedirectError'
            ? new Construct('m', 200, new Headers(), 1)
            : name === 'ParamsValidationError'
              ? new Construct({})
              : name === 'TimeoutError'
                ? new Construct(1)
                : name === 'WebhookVerificationError'
                  ? new Construct('signature_mismatch', 'm')
                  : /Api|Request|Authentication|Payment|Permission|NotFound|NotAllowed|Conflict|Unprocessable|RateLimit|InternalServer/.test(
                        name,
                      )
                    ? new Construct(init)
                    : new Construct('m');
      expect(error.name, name).toBe(name);
    }
  });
});
