import { describe, expect, it } from 'vitest';
import { hostname, networkInterfaces } from 'node:os';
import { createHostAllowlist, isLoopbackName } from '../../../../host/front/web/host-allowlist.ts';
import { clientOf } from '../../../../host/front/web/wrong-token-limiter.ts';

const lanAddresses = Object.values(networkInterfaces())
  .flatMap((addresses) => addresses ?? [])
  .filter((address) => !address.internal)
  .map((address) => address.address);

describe('createHostAllowlist', () => {
  it('reads Host headers with ports, IPv6 brackets, upper case and a trailing dot', () => {
    const allowlist = createHostAllowlist({ bindHost: '127.0.0.1', allowedHosts: ['home.example'] });
    for (const host of [
      'HOME.example.',
      'home.example:8123',
      '[::1]:8123',
      'LocalHost',
      'app.localhost:1',
      '127.8.9.10',
    ])
      expect(allowlist.checkHost(host), host).toBeUndefined();
    for (const host of ['home.example.evil', '[::2]:1', 'a b', 'home.example:port', '', 'user@home.example'])
      expect(allowlist.checkHost(host), host).toBeDefined();
    expect(allowlist.checkHost(undefined)).toBe('the request has no Host header');
  });

  it('answers to the machine hostname and <hostname>.local', () => {
    const allowlist = createHostAllowlist({ bindHost: '127.0.0.1' });
    expect(allowlist.checkHost(hostname())).toBeUndefined();
    expect(allowlist.checkHost(`${hostname()}.local:80`)).toBeUndefined();
  });

  it.skipIf(lanAddresses.length === 0)(
    'answers to every interface address when bound to 0.0.0.0, and only then',
    () => {
      const address = lanAddresses[0] as string;
      const host = address.includes(':') ? `[${address}]:8123` : `${address}:8123`;
      expect(createHostAllowlist({ bindHost: '0.0.0.0' }).checkHost(host)).toBeUndefined();
      expect(createHostAllowlist({ bindHost: '127.0.0.1' }).checkHost(host)).toMatch(/--allowed-host/);
    },
  );

  it('accepts no Origin, and an http(s) Origin of an allowed host only', () => {
    const allowlist = createHostAllowlist({ bindHost: '127.0.0.1', allowedHosts: ['home.example'] });
    for (const origin of [undefined, 'http://127.0.0.1:8123', 'https://home.example', 'http://[::1]:1'])
      expect(allowlist.checkOrigin(origin), origin).toBeUndefined();
    for (const origin of ['null', 'http://evil.example', 'file:///etc', 'chrome-extension://abc', 'not a url'])
      expect(allowlist.checkOrigin(origin), origin).toBeDefined();
  });
});

describe('isLoopbackName and clientOf', () => {
  it('know loopback names and addresses', () => {
    for (const name of ['localhost', '127.0.0.1', '127.1.2.3', '::1', '[::1]', 'x.localhost'])
      expect(isLoopbackName(name), name).toBe(true);
    for (const name of ['0.0.0.0', '::', '192.168.1.2', 'localhost.example', '128.0.0.1'])
      expect(isLoopbackName(name), name).toBe(false);
  });

  it('counts an IPv6 /64 as one client and an IPv4-mapped address as IPv4', () => {
    expect(clientOf('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientOf('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64');
    expect(clientOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientOf('::ffff:192.168.1.9')).toBe('192.168.1.9');
    expect(clientOf('10.0.0.1')).toBe('10.0.0.1');
  });
});
