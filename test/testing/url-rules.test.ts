import { describe, expect, it } from 'vitest';
import { classifyHost, refuseEndpointUrl } from '../../src/testing/events/url-rules.js';
import { SandboxUsageError } from '../../src/testing/index.js';
import { ipAllowed } from '../../src/testing/ip.js';
import { newSandbox } from './helpers.js';

describe('webhook endpoint URL rules (reference section 6, rule 6)', () => {
  // Each is an address the reference refuses, written so a dotted-IPv4 check alone misses it: WHATWG URL
  // rewrites [::ffff:127.0.0.1] as [::ffff:7f00:1].
  const refused: [string, string][] = [
    ['https://[::ffff:127.0.0.1]/x', 'loopback'],
    ['https://[::ffff:7f00:1]/x', 'loopback'],
    ['https://[::7f00:1]/x', 'loopback'],
    ['https://[::127.0.0.1]/x', 'loopback'],
    ['https://[0:0:0:0:0:ffff:127.0.0.1]/x', 'loopback'],
    ['https://[::ffff:169.254.169.254]/latest/meta-data', 'metadata'],
    ['https://[::ffff:10.0.0.1]/x', 'private'],
    ['https://[::ffff:192.168.1.1]/x', 'private'],
    ['https://[::ffff:100.64.0.1]/x', 'cgnat'],
    ['https://[2002:7f00:1::]/x', 'loopback'],
    ['https://[2002:a00:1::1]/x', 'private'],
    ['https://[fec0::1]/x', 'site-local'],
    ['https://[fec0::]/x', 'site-local'],
    ['https://[64:ff9b::a00:1]/x', 'nat64'],
    ['https://[64:ff9b::8.8.8.8]/x', 'nat64'],
    ['https://[64:ff9b:1::1]/x', 'nat64'],
    ['https://[ff02::1]/x', 'multicast'],
    ['https://224.0.0.1/x', 'multicast'],
    ['https://239.255.255.250/x', 'multicast'],
    ['https://255.255.255.255/x', 'broadcast'],
    ['https://240.0.0.1/x', 'reserved'],
    ['https://192.0.2.10/x', 'reserved'],
    ['https://198.18.0.1/x', 'reserved'],
    ['https://[2001:db8::1]/x', 'reserved'],
    ['https://2130706433/x', 'loopback'],
    ['https://0x7f.1/x', 'loopback'],
    ['https://[::]/x', 'unspecified'],
    ['https://0.0.0.0/x', 'unspecified'],
  ];

  it.each(refused)('refuses %s (%s) when loopback is not allowed', (url, kind) => {
    expect(refuseEndpointUrl(url, false)).toBe(`must resolve to a public address (${kind} refused)`);
    const strict = newSandbox({ allowLoopback: false });
    expect(() => strict.webhooks.addEndpoint({ url, types: ['*'] })).toThrow(SandboxUsageError);
  });

  it('lets public addresses through, IPv4-mapped and 6to4 ones included', () => {
    for (const url of [
      'https://8.8.8.8/x',
      'https://[::ffff:8.8.8.8]/x',
      'https://[2606:4700:4700::1111]/x',
      'https://[2002:808:808::1]/x',
      'https://hooks.partner.invalid/x',
    ]) {
      expect(refuseEndpointUrl(url, false), url).toBeNull();
    }
  });

  it('lets mapped loopback through only with allowLoopback, and never other mapped private ranges', () => {
    expect(refuseEndpointUrl('http://[::ffff:127.0.0.1]:8080/x', true)).toBeNull();
    expect(refuseEndpointUrl('http://[::ffff:10.0.0.1]:8080/x', true)).toMatch(/https/);
    expect(refuseEndpointUrl('https://[::ffff:10.0.0.1]/x', true)).toMatch(/private refused/);
  });

  it('classifies a bare host the way the URL parser leaves it, with or without brackets', () => {
    expect(classifyHost('[::ffff:7f00:1]')).toBe('loopback');
    expect(classifyHost('::FFFF:A9FE:A9FE')).toBe('metadata');
    expect(classifyHost('fd00:ec2::254')).toBe('metadata');
    expect(classifyHost('fe80::1')).toBe('link-local');
    expect(classifyHost('not:an:address')).toBeNull();
  });

  it('matches key IP allowlists on the same CIDR rule', () => {
    expect(ipAllowed('203.0.113.0/24', '203.0.113.77')).toBe(true);
    expect(ipAllowed('203.0.113.0/24', '::ffff:203.0.113.77')).toBe(true);
    expect(ipAllowed('203.0.113.0/24', '203.0.114.1')).toBe(false);
    expect(ipAllowed('0.0.0.0/0', '198.51.100.1')).toBe(true);
    expect(ipAllowed('203.0.113.0/33', '203.0.113.1')).toBe(false);
    expect(ipAllowed('203.0.113.5', '203.0.113.5')).toBe(true);
    expect(ipAllowed('203.0.113.5', '::ffff:cb00:7105')).toBe(true);
    // An empty prefix is not /0: it allows nobody.
    expect(ipAllowed('203.0.113.0/', '198.51.100.1')).toBe(false);
    expect(ipAllowed('2001:db8::/32', '2001:db8:1::5')).toBe(true);
    expect(ipAllowed('2001:db8::/32', '2001:db9::5')).toBe(false);
  });
});
