// Whole-process start-up as a person meets it: the real entry (bin/home-agent.mjs, the compiled CLI)
// beside a bare `node -e 0` in the same run, median of several runs each (wall, and the process's
// CPU, which other processes on the machine cannot inflate), `home-agent mcp` from spawn to its
// tools/list answer — alone on an empty data folder, and beside a running serve (through the home's
// socket) — and `npm start`'s script from spawn to its URL in browser mode.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const ENTRY = fileURLToPath(new URL('../../bin/home-agent.mjs', import.meta.url));
const START = fileURLToPath(new URL('../../scripts/start.mjs', import.meta.url));
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
  /** CPU time (user + system) of the process, medians: bare node, `--help`, `devices list`. */
  bareNodeCpuMs: number;
  helpCpuMs: number;
  devicesListCpuMs: number;
  /** `node scripts/start.mjs` (what `npm start` runs) from spawn to its URL line, no display (browser mode), UI built. */
  npmStartToUrlMs: number;
  /** The machine's load average over the last minute when the runs ended: the wall figures move with it. */
  loadAverage1m: number;
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

/** The CPU ms (user + system) one run of `node ARGS` used, as the shell's `times` counts its child (10 ms steps). */
function cpuOfRun(args: string[]): number {
  const run = spawnSync('sh', ['-c', '"$@" >/dev/null 2>&1 || exit 1; times', 'sh', process.execPath, ...args], {
    env,
  });
  if (run.status !== 0) throw new Error(`${args.join(' ')} exited ${run.status}`);
  // `times` prints the shell's own times, then its children's: "0m0.120000s 0m0.020000s".
  const children = run.stdout.toString().trim().split('\n').at(-1) ?? '';
  const seconds = [...children.matchAll(/(\d+)m([\d.]+)s/g)].map(
    ([, minutes, rest]) => Number(minutes) * 60 + Number(rest),
  );
  if (seconds.length !== 2) throw new Error(`unexpected output of times: ${children}`);
  return Math.round((seconds[0]! + seconds[1]!) * 1000);
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

/** `node scripts/start.mjs` in browser mode (no display) on a data folder of its own: ms from spawn to its URL line. */
function npmStartToUrl(dataDir: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [START, '--port', '0', '--data-dir', dataDir], {
      env: { ...env, DISPLAY: '', WAYLAND_DISPLAY: '' },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let out = '';
    const early = (code: number | null): void => reject(new Error(`npm start exited ${code} before its URL: ${out}`));
    child.once('exit', early);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (!out.includes('Home Agent is serving at') || child.killed) return;
      const ms = performance.now() - started;
      child.off('exit', early);
      child.once('exit', () => resolve(ms));
      child.kill('SIGTERM');
    });
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
    const cpu = { bare: [] as number[], help: [] as number[], list: [] as number[] };
    for (let run = 0; run < RUNS; run += 1) {
      bare.push(timedRun(['-e', '0']));
      help.push(timedRun([ENTRY, '--help']));
      list.push(timedRun([ENTRY, 'devices', 'list', '--data-dir', path.join(folder, 'list')]));
      cpu.bare.push(cpuOfRun(['-e', '0']));
      cpu.help.push(cpuOfRun([ENTRY, '--help']));
      cpu.list.push(cpuOfRun([ENTRY, 'devices', 'list', '--data-dir', path.join(folder, 'list')]));
    }
    // The first start builds the UI when a source is newer than its build: not measured.
    await npmStartToUrl(path.join(folder, 'start-first'));
    const start: number[] = [];
    for (let run = 0; run < RUNS; run += 1) start.push(await npmStartToUrl(path.join(folder, `start-${run}`)));
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
      bareNodeCpuMs: median(cpu.bare),
      helpCpuMs: median(cpu.help),
      devicesListCpuMs: median(cpu.list),
      npmStartToUrlMs: median(start),
      loadAverage1m: Math.round(loadavg()[0]! * 10) / 10,
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
