import { hostname as machineHostname, networkInterfaces } from 'node:os';
import { isIP } from 'node:net';

/** Decides which Host and Origin headers a web server answers; each check returns a problem in words, or undefined. */
export interface HostAllowlist {
  checkHost(header: string | undefined): string | undefined;
  checkOrigin(header: string | undefined): string | undefined;
}

const WILDCARD_ADDRESSES = new Set(['0.0.0.0', '::', '']);

/** `Example.COM.` → `example.com`; `[::1]` → `::1`. */
function normalise(name: string): string {
  let host = name.trim().toLowerCase();
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  if (host.endsWith('.')) host = host.slice(0, -1);
  return host;
}

/** The host of a Host header (`name`, `name:port`, `[v6]:port`), or undefined when it is not one. */
function hostOfHeader(header: string): string | undefined {
  const value = header.trim();
  const bracketed = /^\[([0-9a-fA-F:.]+)\](?::\d{1,5})?$/.exec(value);
  if (bracketed) return normalise(bracketed[1] as string);
  const named = /^([A-Za-z0-9.-]+)(?::\d{1,5})?$/.exec(value);
  return named ? normalise(named[1] as string) : undefined;
}

/** True for `localhost`, `*.localhost`, 127.0.0.0/8 and ::1 (a bracketed or trailing-dot form too). */
export function isLoopbackName(name: string): boolean {
  const host = normalise(name);
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1' || host.startsWith('::ffff:127.');
}

/**
 * The hosts a server bound to `bindHost` answers to: loopback names and addresses, the bind address,
 * the machine's own hostname and `<hostname>.local`, its interface addresses when bound to every
 * interface (0.0.0.0 / ::), and `allowedHosts`. Anything else is refused, which is what defeats
 * DNS rebinding: a page of evil.example resolved to this machine still sends `Host: evil.example`.
 */
export function createHostAllowlist(options: { bindHost: string; allowedHosts?: readonly string[] }): HostAllowlist {
  const allowed = new Set<string>();
  // The bind address itself, even 0.0.0.0: the URL `serve` prints for it is http://0.0.0.0:PORT/.
  const bind = normalise(options.bindHost);
  allowed.add(bind);
  if (WILDCARD_ADDRESSES.has(bind))
    for (const addresses of Object.values(networkInterfaces()))
      for (const address of addresses ?? []) allowed.add(normalise(address.address));
  const name = normalise(machineHostname());
  if (name !== '') {
    allowed.add(name);
    allowed.add(`${name}.local`);
  }
  for (const host of options.allowedHosts ?? []) allowed.add(hostOfHeader(host) ?? normalise(host));
  const accepts = (host: string): boolean => isLoopbackName(host) || allowed.has(host);
  const howToAllow = (host: string): string =>
    `if you reach this server under that name, start it with --allowed-host ${host}`;

  return {
    checkHost(header) {
      if (header === undefined || header.trim() === '') return 'the request has no Host header';
      const host = hostOfHeader(header);
      if (host === undefined) return `the Host header '${header.slice(0, 100)}' is not a host name`;
      if (accepts(host)) return undefined;
      return `this server does not answer to the host '${host}': ${howToAllow(host)}`;
    },
    checkOrigin(header) {
      // No Origin: not a browser page (the CLI, MCP clients, curl); the token still applies.
      if (header === undefined) return undefined;
      let host: string | undefined;
      try {
        const origin = new URL(header);
        host = origin.protocol === 'http:' || origin.protocol === 'https:' ? normalise(origin.hostname) : undefined;
      } catch {
        host = undefined; // `null` (sandboxed frames, files) and other non-URLs are no origin we know
      }
      if (host !== undefined && accepts(host)) return undefined;
      return `a page from ${header.slice(0, 100)} may not use this server${host ? `: ${howToAllow(host)}` : ''}`;
    },
  };
}
