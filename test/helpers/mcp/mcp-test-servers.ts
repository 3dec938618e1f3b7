import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../free-port.ts';
import { untilPrinted } from '../until-printed.ts';
import type { McpServerConfig } from '../../../host/plugins/mcp/mcp-config.ts';

/** The entry point of `@modelcontextprotocol/server-everything` (a devDependency): its bin `dist/index.js`. */
export const EVERYTHING_ENTRY = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist/index.js',
);

/** A config entry that starts server-everything over stdio, as mcp.json would give it. */
export function everythingOverStdio(name = 'everything'): McpServerConfig {
  return {
    name,
    pluginName: `mcp-${name}`,
    transport: { kind: 'stdio', command: process.execPath, args: [EVERYTHING_ENTRY, 'stdio'], env: {} },
  };
}

/** The `mcpServers` entry of an mcp.json that starts server-everything over stdio. */
export function everythingStdioEntry(): { command: string; args: string[] } {
  return { command: process.execPath, args: [EVERYTHING_ENTRY, 'stdio'] };
}

/** server-everything over Streamable HTTP on a loopback port (`PORT`), its address, and how to stop it. */
export interface EverythingHttp {
  url: string;
  child: ChildProcess;
  /** Kills it (SIGKILL) and resolves once it has exited. */
  kill(): Promise<void>;
}

/**
 * Starts server-everything in `streamableHttp` mode on a free port and resolves once it says it
 * listens (it prints the port on stderr); a port taken meanwhile is tried again with another.
 */
export async function startEverythingHttp(): Promise<EverythingHttp> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const port = await freePort();
    const child = spawn(process.execPath, [EVERYTHING_ENTRY, 'streamableHttp'], {
      env: { PATH: process.env.PATH ?? '', PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const listening = await untilPrinted({
      child,
      stream: child.stderr!,
      ready: /listening on port/,
      name: 'server-everything',
    }).then(
      () => true,
      () => false,
    );
    if (listening)
      return {
        url: `http://127.0.0.1:${port}/mcp`,
        child,
        kill: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
          await exited;
        },
      };
  }
  throw new Error('server-everything did not start over Streamable HTTP (five ports tried)');
}

/** The probe server (test/helpers/mcp/probe-mcp-server.mjs): what server-everything cannot be made to do. */
export const PROBE_ENTRY = path.join(path.dirname(fileURLToPath(import.meta.url)), 'probe-mcp-server.mjs');

/** A config entry that starts the probe server over stdio, reading its declarations from `file`. */
export function probeOverStdio(options: { name: string; file: string; env?: Record<string, string> }): McpServerConfig {
  return {
    name: options.name,
    pluginName: `mcp-${options.name}`,
    transport: {
      kind: 'stdio',
      command: process.execPath,
      args: [PROBE_ENTRY, options.file],
      env: options.env ?? {},
    },
  };
}

/** The `mcpServers` entry of an mcp.json that starts the probe server on `file`. */
export function probeEntry(file: string, env?: Record<string, string>): Record<string, unknown> {
  return { command: process.execPath, args: [PROBE_ENTRY, file], ...(env ? { env } : {}) };
}

/** Whether a process of this pid is alive (not gone, not a zombie), from /proc. */
export function isRunning(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    // No /proc entry: the process is gone.
    return false;
  }
}
