import { defineCommand } from 'citty';
import { API_FLAGS, calling, clientFor } from '../api-call.js';
import { EXIT } from '../exit-codes.js';
import { maskKey } from '../output.js';
import { run } from '../run.js';

/** `shop-mgmt whoami`: the shop and key the command line talks to, as GET /v1/me shows them. */
export const whoamiCommand = defineCommand({
  meta: {
    name: 'whoami',
    description:
      'The shop and key in use: environment (sandbox or live), permissions, locations, plan and the rate-limit figures.',
  },
  args: { ...API_FLAGS },
  run: ({ args: flags }) =>
    run(flags.json, async (output) => {
      const { shop, credentials } = await clientFor(flags.profile);
      const answer = await calling(() => shop.me.retrieve().withResponse());
      const me = answer.data as Record<string, unknown>;
      const shopInfo = (me.shop ?? {}) as Record<string, unknown>;
      const environment =
        typeof me.environment === 'string' ? me.environment : me.livemode === true ? 'live' : 'sandbox';
      const permissions = Array.isArray(me.permissions) ? (me.permissions as string[]) : null;
      const locations = Array.isArray(me.locations) ? (me.locations as unknown[]) : null;
      const rate = answer.rateLimit;
      const record = {
        profile: credentials.profile,
        keySource: credentials.keySource,
        key: maskKey(credentials.apiKey!),
        baseUrl: credentials.baseUrl,
        environment,
        keyId: me.id ?? null,
        plan: shopInfo.plan ?? null,
        permissions,
        locations,
        expiresAt: me.expires_at ?? null,
        rateLimit: rate,
      };
      if (output.mode.json) {
        output.record(record, '');
        return EXIT.ok;
      }
      const env = environment === 'live' ? output.paint('red', 'LIVE') : output.paint('green', environment);
      const lines = [
        `${env} shop at ${credentials.baseUrl} (${credentials.keySource}${credentials.profile && credentials.keySource !== `profile ${credentials.profile}` ? `, over profile ${credentials.profile}` : ''})`,
        `key          ${record.key}${me.id ? ` (${String(me.id)})` : ''}${me.expires_at ? `, expires ${String(me.expires_at)}` : ''}`,
        `plan         ${String(shopInfo.plan ?? 'not shown')}`,
        `permissions  ${permissions ? permissions.join(', ') || 'none' : 'not shown by the API'}`,
        `locations    ${locations === null ? 'all' : locations.join(', ')}`,
        `rate limit   ${rate.remaining ?? '?'} of ${rate.limit ?? '?'} this minute${rate.dailyLimit !== null ? `, ${rate.dailyRemaining ?? '?'} of ${rate.dailyLimit} today` : ''}`,
      ];
      for (const line of lines) output.record(record, line);
      return EXIT.ok;
    }),
});
