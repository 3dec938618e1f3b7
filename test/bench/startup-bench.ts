// Whole-process start-up as a person meets it: the real entry (bin/home-agent.mjs, the compiled CLI)
// beside a bare `node -e 0` in the same run, median of several runs each, and `home-agent mcp` from
// spawn to its tools/list answer — alone on an empty data folder, and beside a running serve
// (through the home's socket).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const ENTRY = fileURLToPath(new URL('../../bin/home-agent.mjs', import.meta.url));
const RUNS = 5;

export interface StartupBench {
  runs: number;
  bareNodeMs: number;
  helpMs: number;
  helpRatio: number;
  devicesListMs: number;
  devicesListRatio: number;
  /** `home-agent mcp --data-dir D` from spawn to its tools/list answer, no host running (it hosts). */
  mcpToolsListAloneMs: number;
  /** The same beside a running `serve` of D: the session goes through that host. */
  mcpToolsListBesideHostMs: number;
}

const env = { ...process.env, HOME_AGENT_NO_OLLAMA_PROBE: '1', HOME_AGENT_TOKEN: '' };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.floor(sorted.length / 2)]! * 10) / 10;
}

function timedRun(args: string[]): number {
  const started = performance.now();
  const run = spawnSync(process.execPath, args, { env, stdio: 'ignore' });
  if (run.status !== 0) throw new Error(`${args.join(' ')} exited ${run.status}`);
  return performance.now() - started;
}

/** Spawns `home-agent mcp ARGS`, says initialize and asks tools/list: ms until the answer. */
function mcpToolsList(dataDir: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [ENTRY, 'mcp', '--data-dir', dataDir], {
      env,
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    let out = '';
    const early = (code: number | null): void =>
      reject(new Error(`home-agent mcp exited ${code} before answering tools/list`));
    child.once('exit', early);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (!out.includes('"id":2')) return;
      const ms = performance.now() - started;
      child.off('exit', early);
      child.once('exit', () => resolve(ms));
      child.stdin.end();
    });
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } })}\n${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`,
    );
  });
}

async function startServe(dataDir: string): Promise<() => Promise<void>> {
  const child = spawn(process.execPath, [ENTRY, 'serve', '--sim', '--port', '0', '--data-dir', dataDir], {
    env,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('serving at') && resolve());
    child.once('exit', (code) => reject(new Error(`serve exited ${code}`)));
  });
  return async () => {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  };
}

export async function benchStartup(): Promise<StartupBench> {
  const folder = mkdtempSync(path.join(tmpdir(), 'ha-bench-startup-'));
  try {
    // The first run builds the CLI when a source is newer than its build: not measured.
    timedRun([ENTRY, '--help']);
    const bare: number[] = [];
    const help: number[] = [];
    const list: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      bare.push(timedRun(['-e', '0']));
      help.push(timedRun([ENTRY, '--help']));
      list.push(timedRun([ENTRY, 'devices', 'list', '--data-dir', path.join(folder, 'list')]));
    }
    const alone: number[] = [];
    for (let run = 0; run < RUNS; run += 1) alone.push(await mcpToolsList(path.join(folder, `alone-${run}`)));
    const hosted = path.join(folder, 'hosted');
    const stopServe = await startServe(hosted);
    const beside: number[] = [];
    try {
      for (let run = 0; run < RUNS; run += 1) beside.push(await mcpToolsList(hosted));
    } finally {
      await stopServe();
    }
    const bareNodeMs = median(bare);
    return {
      runs: RUNS,
      bareNodeMs,
      helpMs: median(help),
      helpRatio: Math.round((median(help) / bareNodeMs) * 100) / 100,
      devicesListMs: median(list),
      devicesListRatio: Math.round((median(list) / bareNodeMs) * 100) / 100,
      mcpToolsListAloneMs: median(alone),
      mcpToolsListBesideHostMs: median(beside),
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
