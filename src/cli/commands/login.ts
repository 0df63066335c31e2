import { readFileSync } from 'node:fs';
import { defineCommand } from 'citty';
import { ShopClient } from '../../client.js';
import { readEnv } from '../../internal/env.js';
import type { ShopEntry } from '../../sync/fleet/registry.js';
import { asCliError } from '../api-call.js';
import { CliError, EXIT, usageError } from '../exit-codes.js';
import { maskKey } from '../output.js';
import { httpUrl } from '../parse.js';
import { isLiveKey, profileName, profilesFile, readProfiles, writeProfiles } from '../profiles.js';
import { run } from '../run.js';

const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/;

/** The key from stdin when piped, else from a prompt that echoes nothing. Never from argv. */
async function readKey(): Promise<string> {
  if (!process.stdin.isTTY) return readFileSync(0, 'utf8').trim();
  process.stderr.write('API key (not shown): ');
  const stdin = process.stdin;
  stdin.setRawMode(true);
  stdin.resume();
  stdin.setEncoding('utf8');
  return new Promise((resolve, reject) => {
    let key = '';
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') {
          finish();
          resolve(key.trim());
          return;
        }
        if (char === '\u0003') {
          finish();
          reject(new CliError('cancelled', EXIT.failed));
          return;
        }
        if (char === '\u007f') key = key.slice(0, -1);
        else key += char;
      }
    };
    const finish = () => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write('\n');
    };
    stdin.on('data', onData);
  });
}

/** `shop-mgmt login`: checks a key against the API and stores it as a profile (mode 0600). */
export const loginCommand = defineCommand({
  meta: {
    name: 'login',
    description:
      'Store an API key as a profile: read from stdin or a hidden prompt (never the command line), checked against the API first.',
  },
  args: {
    profile: { type: 'string', description: 'The profile’s name (default: SHOP_PROFILE, else "default")' },
    'base-url': {
      type: 'string',
      description: 'The API’s address (default: SHOP_API_BASE_URL, else the profile’s own)',
    },
    json: { type: 'boolean', description: 'One JSON line, for machines' },
  },
  run: ({ args: flags }) =>
    run(flags.json, async (output) => {
      const { name } = profileName(flags.profile);
      if (!NAME.test(name)) {
        throw usageError(
          `a profile name is letters, digits, - and _ (up to 63), got ${JSON.stringify(name)}`,
        );
      }
      const entries = readProfiles();
      const existing = entries.find((entry) => entry.name === name);
      const rawUrl = flags['base-url'] ?? (readEnv('SHOP_API_BASE_URL') || undefined) ?? existing?.baseUrl;
      if (!rawUrl) throw usageError('give the API’s address: --base-url URL (or SHOP_API_BASE_URL)');
      const baseUrl = httpUrl(
        rawUrl,
        flags['base-url'] !== undefined ? 'base-url' : 'SHOP_API_BASE_URL',
      ).replace(/\/$/, '');
      const apiKey = await readKey();
      if (apiKey === '')
        throw usageError('no key read: pipe it in (shop-mgmt login < key.txt) or type it at the prompt');
      if (/\s/.test(apiKey)) throw usageError('the key holds a space or a line break: give the key alone');
      let me: Record<string, unknown>;
      try {
        me = (await new ShopClient({ apiKey, baseUrl, maxRetries: 1 }).me.retrieve()) as Record<
          string,
          unknown
        >;
      } catch (error) {
        const cli = asCliError(error);
        throw new CliError(
          `the key was not stored: ${(cli as Error).message}`,
          cli instanceof CliError ? cli.code : EXIT.failed,
        );
      }
      const entry: ShopEntry = { ...existing, name, apiKey, baseUrl };
      const path = writeProfiles([...entries.filter((other) => other.name !== name), entry]);
      const environment =
        typeof me.environment === 'string' ? me.environment : isLiveKey(apiKey) ? 'live' : 'sandbox';
      output.record(
        { event: 'login', profile: name, baseUrl, environment, key: maskKey(apiKey), file: path },
        `${output.paint('green', '✔')} profile ${name}: ${maskKey(apiKey)} for ${baseUrl} (${environment === 'live' ? output.paint('red', 'live') : environment}), saved in ${path} (mode 0600)`,
      );
      return EXIT.ok;
    }),
});

/** `shop-mgmt logout`: removes a profile from the profiles file. */
export const logoutCommand = defineCommand({
  meta: { name: 'logout', description: 'Remove a profile (its key) from the profiles file.' },
  args: {
    profile: { type: 'string', description: 'The profile (default: SHOP_PROFILE, else "default")' },
    json: { type: 'boolean', description: 'One JSON line, for machines' },
  },
  run: ({ args: flags }) =>
    run(flags.json, async (output) => {
      const { name } = profileName(flags.profile);
      const entries = readProfiles();
      if (!entries.some((entry) => entry.name === name)) {
        throw usageError(`no profile ${JSON.stringify(name)} in ${profilesFile()}`);
      }
      writeProfiles(entries.filter((entry) => entry.name !== name));
      output.record({ event: 'logout', profile: name }, `profile ${name} removed from ${profilesFile()}`);
      return EXIT.ok;
    }),
});

/** `shop-mgmt profiles`: the stored profiles, keys masked. */
export const profilesCommand = defineCommand({
  meta: { name: 'profiles', description: 'List the stored profiles (keys masked) and which one is used.' },
  args: { json: { type: 'boolean', description: 'One JSON object a profile' } },
  run: ({ args: flags }) =>
    run(flags.json, async (output) => {
      const entries = readProfiles();
      const current = profileName(undefined).name;
      if (entries.length === 0) output.note(`no profiles yet (${profilesFile()}): shop-mgmt login`);
      for (const entry of entries) {
        const literal = !/^(env|file):/.test(entry.apiKey);
        const key = literal ? maskKey(entry.apiKey) : entry.apiKey;
        const environment = literal ? (isLiveKey(entry.apiKey) ? 'live' : 'sandbox') : 'unknown';
        const mark = entry.name === current ? '*' : ' ';
        output.record(
          {
            profile: entry.name,
            baseUrl: entry.baseUrl ?? null,
            key,
            environment,
            current: entry.name === current,
          },
          `${mark} ${entry.name.padEnd(16)} ${environment === 'live' ? output.paint('red', 'live   ') : environment.padEnd(7)} ${key.padEnd(20)} ${entry.baseUrl ?? ''}`,
        );
      }
      return EXIT.ok;
    }),
});
