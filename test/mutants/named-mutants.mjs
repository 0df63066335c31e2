// The named mutants (issue 35): each breaks one claim the suite makes about keeping data, as a search and
// replace on one file. `search` must occur exactly once in `file`, or the spec is stale and the run fails.
// scripts/named-mutants.mjs applies each to a copy of the repository, runs `tests` there and expects them
// to fail (the mutant killed). See README.md beside this file.

/** @type {readonly { id: string; guards: string; file: string; search: string; replace: string; tests: readonly string[]; buildCli?: boolean }[]} */
export const mutants = [
  {
    id: 'webhook-write-skipped',
    guards: 'an event a webhook brought is written to the inbox before the 200',
    file: 'src/sync/inbox/inbox.ts',
    search: '    const added = await this.store.add({ event, source, orderingKey, now: this.#now() });',
    replace:
      "    const added = source === 'webhook' ? true : await this.store.add({ event, source, orderingKey, now: this.#now() });",
    tests: ['test/sync/inbox/crash-sqlite.test.ts'],
  },
  {
    id: 'sync-worker-apply-skipped',
    guards: "`sync --listen` applies what its inbox received (the worker's apply, not only the feed)",
    file: 'src/cli/commands/sync.ts',
    search: '      worker = inbox.inbox.work((event: ShopEvent, context) => handler(event, context), {',
    replace: '      worker = inbox.inbox.work(async (_event: ShopEvent, _context) => undefined, {',
    tests: ['test/cli/sync-crash.test.ts'],
    // The test runs the built bin: built from the mutated sources before the tests start.
    buildCli: true,
  },
  {
    id: 'done-mark-before-effect',
    guards: "the Redis inbox (no transaction) marks an event done only after its handler's effect",
    file: 'src/sync/inbox/redis.ts',
    search:
      "    await work(undefined);\n    return (await this.#finishLease(lease, 'done', 0, '', now)) ? 'done' : 'lost';",
    replace:
      "    const done = await this.#finishLease(lease, 'done', 0, '', now);\n    await work(undefined);\n    return done ? 'done' : 'lost';",
    tests: ['test/sync/inbox/inbox.test.ts'],
  },
  {
    id: 'dedupe-done-before-handlers',
    guards: "a webhook handler with a lease store marks the event done only after its handlers' effect",
    file: 'src/webhooks/receive.ts',
    search: '  const handled = failureOf(async () => {\n    await onEvent?.(event, context);',
    replace:
      '  const handled = failureOf(async () => {\n    if (leased) await leased.complete(key, token, setup.ttl);\n    await onEvent?.(event, context);',
    tests: ['test/webhooks/leases.test.ts', 'test/webhooks/dedupe.test.ts'],
  },
  {
    id: 'signature-always-matches',
    guards:
      'a delivery whose v1 signature is not the HMAC of its body under the secret is refused (node:crypto)',
    file: 'src/webhooks/hmac.ts',
    search: '      if (node.timingSafeEqual(expected, hexToBytes(signature))) return true;',
    replace: '      if (node.timingSafeEqual(expected, hexToBytes(signature)) || true) return true;',
    tests: ['test/webhooks/verify.test.ts'],
  },
  {
    id: 'signature-always-matches-web-crypto',
    guards: 'the same on Web Crypto (runtimes without node:crypto)',
    file: 'src/webhooks/hmac.ts',
    search: "      if (await crypto.subtle.verify('HMAC', key, candidate, data)) return true;",
    replace: "      if ((await crypto.subtle.verify('HMAC', key, candidate, data)) || true) return true;",
    tests: ['test/webhooks/verify.test.ts', 'test/webhooks/runtime-neutral.test.ts'],
  },
  {
    id: 'idempotency-key-per-retry',
    guards: "every retry of a POST carries the call's one Idempotency-Key",
    file: 'src/core/transport/transport.ts',
    search: '    let headers = prepared.headers;\n    if (prepared.keyed) {',
    replace:
      "    let headers =\n      prepared.idempotencyKey === null || call.attempts === 1\n        ? prepared.headers\n        : { ...prepared.headers, 'idempotency-key': crypto.randomUUID() };\n    if (prepared.keyed) {",
    tests: ['test/core/idempotency.test.ts', 'test/core/retry.test.ts'],
  },
];
