// The official MCP conformance suite's server scenarios against `home-agent serve --mcp` (the real
// CLI in its own process, simulated devices), behind a proxy that adds the MCP credential. Every
// scenario passes or is listed in expected-failures.yml with its reason; the suite fails the run on
// a listed scenario that passes, so the list only shrinks.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { homeAgentCommand } from '../helpers/compiled-entries.ts';
import { REPO_ROOT } from '../helpers/run-cli.ts';
import { useOwnSimIndex } from '../helpers/own-sim-index.ts';
import { startBearerProxy } from './bearer-proxy.ts';
import { EXPECTED_FAILURES, findConformanceSuite, runConformance } from './conformance-suite.ts';

const suite = findConformanceSuite();
const index = useOwnSimIndex();
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Starts `serve --mcp --sim` on a free port; resolves with its `/mcp` origin and MCP credential from the line it prints. */
async function startServe(): Promise<{ origin: string; credential: string }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'home-agent-conformance-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const child: ChildProcess = spawn(
    process.execPath,
    [...homeAgentCommand(), 'serve', '--mcp', '--sim', '--sim-latency-ms', '0', '--port', '0', '--data-dir', dataDir],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, HOME_AGENT_NO_OLLAMA_PROBE: '1', HOME_AGENT_SIM_INDEX: index },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  cleanups.push(async () => {
    child.kill('SIGTERM');
    await exited;
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout! });
  return new Promise((resolve, reject) => {
    lines.on('line', (line) => {
      const found = /^MCP clients: (http:\/\/[^/]+)\/mcp with the header Authorization: Bearer (\S+)$/.exec(line);
      if (found) resolve({ origin: found[1]!, credential: found[2]! });
    });
    void exited.then(() => reject(new Error(`serve exited before it printed its MCP line:\n${stderr}`)));
  });
}

describe.skipIf('missing' in suite)(
  `the MCP conformance suite's server scenarios${'missing' in suite ? ` (skipped: ${suite.missing})` : ''}`,
  () => {
    it(
      'passes every scenario against serve --mcp, but those its baseline lists with their reasons',
      { timeout: 240_000 },
      async () => {
        if ('missing' in suite) return;
        const served = await startServe();
        const proxy = await startBearerProxy({ target: served.origin, credential: served.credential });
        cleanups.push(() => proxy.close());
        const outdir = mkdtempSync(path.join(tmpdir(), 'home-agent-conformance-results-'));
        cleanups.push(() => rmSync(outdir, { recursive: true, force: true }));
        const run = await runConformance(suite, [
          'server',
          '--url',
          `${proxy.origin}/mcp`,
          '--expected-failures',
          EXPECTED_FAILURES,
          '-o',
          outdir,
        ]);
        expect(run.status, run.output.slice(-6000)).toBe(0);
      },
    );
  },
);
