// `shop-mgmt completion bash` loaded into bash: the function registered (`complete -p`), then a command, a
// flag, a closed value and a profile name completed through COMP_WORDS/COMP_CWORD as bash sets them on TAB.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeShopsFile } from '../../src/sync/fleet/registry.js';
import { cliSuite } from './helpers.js';

const { cli, scratch } = cliSuite('completion');

/** A `shop-mgmt` on PATH (as npm links the bin), the script loaded, and `words` completed. */
function completeInBash(words: string[]): { reply: string[]; registered: string } {
  const bin = join(scratch(), 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'shop-mgmt'), `#!/bin/sh\nexec "${process.execPath}" "${cli.binPath()}" "$@"\n`);
  chmodSync(join(bin, 'shop-mgmt'), 0o755);
  const config = join(scratch(), 'config');
  mkdirSync(join(config, 'shop-mgmt'), { recursive: true });
  writeShopsFile(join(config, 'shop-mgmt', 'shops.json'), [
    { name: 'acme', apiKey: 'sk_test_x', baseUrl: 'http://127.0.0.1:9' },
    { name: 'north', apiKey: 'sk_test_y', baseUrl: 'http://127.0.0.1:9' },
  ]);
  const array = words.map((word) => `'${word}'`).join(' ');
  const script = [
    'eval "$(shop-mgmt completion bash)"',
    'complete -p shop-mgmt',
    `COMP_WORDS=(${array}); COMP_CWORD=${words.length - 1}`,
    '_shop_mgmt_complete',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash's own expansion, not a template
    'printf "reply:%s\\n" "${COMPREPLY[@]}"',
  ].join('\n');
  const result = spawnSync('bash', ['--norc', '--noprofile', '-c', script], {
    encoding: 'utf8',
    env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, XDG_CONFIG_HOME: config, NO_COLOR: '1' },
    timeout: 30_000,
  });
  expect(result.status, result.stderr).toBe(0);
  const lines = result.stdout.split('\n');
  return {
    registered: lines[0]!,
    reply: lines
      .filter((line) => line.startsWith('reply:') && line !== 'reply:')
      .map((line) => line.slice(6)),
  };
}

describe('shop-mgmt completion', () => {
  it('bash: registers for shop-mgmt and completes a command', () => {
    const { registered, reply } = completeInBash(['shop-mgmt', 'ra']);
    expect(registered).toBe('complete -o default -F _shop_mgmt_complete shop-mgmt');
    expect(reply).toEqual(['range']);
    expect(completeInBash(['shop-mgmt', 'range', 'reservations', 'c']).reply).toEqual([
      'cancel',
      'check-in',
      'create',
    ]);
  });

  it('bash: completes a flag of a resource command', () => {
    expect(completeInBash(['shop-mgmt', 'range', 'reservations', 'list', '--sta']).reply).toEqual([
      '--status',
    ]);
  });

  it('bash: completes a closed value and a profile name', () => {
    expect(completeInBash(['shop-mgmt', 'range', 'reservations', 'list', '--status', 'c']).reply).toEqual([
      'cancelled',
      'checked_in',
      'completed',
    ]);
    expect(completeInBash(['shop-mgmt', 'whoami', '--profile', '']).reply).toEqual(['acme', 'north']);
    expect(completeInBash(['shop-mgmt', 'api', 'p']).reply).toEqual(['patch', 'post']);
  });

  it('prints zsh and fish scripts, and refuses another shell with a suggestion', async () => {
    const zsh = await cli.run(['completion', 'zsh']);
    expect(zsh.code).toBe(0);
    expect(zsh.stdout.join('\n')).toContain('compdef _shop_mgmt shop-mgmt');
    const fish = await cli.run(['completion', 'fish']);
    expect(fish.stdout.join('\n')).toContain("complete -c shop-mgmt -f -a '(__shop_mgmt_complete)'");
    const other = await cli.run(['completion', 'bsh']);
    expect(other.code).toBe(2);
    expect(other.stderr.join('\n')).toContain('did you mean bash?');
  });
});
