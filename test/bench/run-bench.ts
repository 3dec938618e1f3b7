// `npm run bench [-- --json]`: batch wall time parallel vs forced serial, kernel overhead per call,
// the devices bench and the UI frame bench when they are available. With --json, stdout is exactly one JSON object.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { benchBatch, benchOverhead, type BatchBenchRow } from './batch-bench.ts';
import type { UiFramesResult } from './ui-frames-bench.ts';

const SIZES = [2, 4, 8, 16];
const BENCH_TIMEOUT_MS = 120_000;
/** Its own budget: it may first build the renderer, then starts a host and a browser. */
const UI_BENCH_TIMEOUT_MS = 240_000;

interface BenchReport {
  batch: BatchBenchRow[];
  /** Null when the run did not execute every call (a failure, not a measurement). */
  overheadUsPerCall: number | null;
  overheadCalls: number;
  overheadFailure?: string;
  devices?: unknown;
  /** UI frame times while a 16-tool batch streams in: the figures, `{ skipped }` or `{ failed }`. */
  ui?: unknown;
  /** How soon a running host sees a grant changed by another process: figures, `{ skipped }` or `{ failed }`. */
  storeChanges?: unknown;
}

/** The devices bench needs socat (pseudo-terminal pairs); without it, it is skipped with a note. */
async function devicesEntry(): Promise<unknown> {
  const file = fileURLToPath(new URL('./devices-bench.ts', import.meta.url));
  if (!existsSync(file)) return { skipped: 'test/bench/devices-bench.ts is not there' };
  if (spawnSync('socat', ['-V'], { stdio: 'ignore' }).status !== 0)
    return { skipped: 'socat is not installed (the devices bench needs pseudo-terminal pairs)' };
  const module = (await import('./devices-bench.ts')) as { benchDevices?: () => Promise<unknown> };
  if (typeof module.benchDevices !== 'function')
    return { skipped: 'test/bench/devices-bench.ts exports no benchDevices()' };
  try {
    return await module.benchDevices();
  } catch (error) {
    return { failed: (error as Error)?.message ?? String(error) };
  }
}

/** Needs socat for the lamp's pseudo-terminal; its failure is reported as `{ failed }`, never thrown. */
async function storeChangesEntry(): Promise<unknown> {
  if (spawnSync('socat', ['-V'], { stdio: 'ignore' }).status !== 0)
    return { skipped: 'socat is not installed (the store-changes bench needs a pseudo-terminal pair)' };
  try {
    const { benchStoreChanges } = await import('./store-changes-bench.ts');
    return await benchStoreChanges();
  } catch (error) {
    return { failed: (error as Error)?.message ?? String(error) };
  }
}

/** The UI bench drives headless Chromium; its failure is reported as `{ failed }`, never thrown. */
async function uiEntry(): Promise<unknown> {
  try {
    const { benchUiFrames } = await import('./ui-frames-bench.ts');
    return await benchUiFrames({ signal: AbortSignal.timeout(UI_BENCH_TIMEOUT_MS) });
  } catch (error) {
    return { failed: (error as Error)?.message ?? String(error) };
  }
}

function uiLine(ui: unknown): string {
  const entry = ui as Partial<UiFramesResult> & { skipped?: string; failed?: string };
  if (entry.failed !== undefined) return `UI frames: FAILED (${entry.failed})`;
  if (entry.skipped !== undefined) return `UI frames: skipped (${entry.skipped})`;
  return [
    `UI frames, headless Chromium, while a ${entry.tools}-tool parallel batch streams in (batch wall ${entry.batchWallMs?.toFixed(0)} ms):`,
    `  ${entry.frames} frames: median ${entry.medianFrameMs?.toFixed(1)} ms, p95 ${entry.p95FrameMs?.toFixed(1)} ms, max ${entry.maxFrameMs?.toFixed(1)} ms, ${entry.longFrames} over 50 ms`,
    `  idle baseline (2 s): median ${entry.idleMedianFrameMs?.toFixed(1)} ms, p95 ${entry.idleP95FrameMs?.toFixed(1)} ms`,
  ].join('\n');
}

function table(report: BenchReport): string {
  const lines = [
    'Batch of N tools × 250 ms, real kernel (runBatch), parallel vs forced serial:',
    '',
    '   N   parallel ms   serial ms   speedup   goal ≥   executed (par/ser)',
  ];
  for (const row of report.batch) {
    const speedup = row.speedup === null ? 'FAILED' : `${row.speedup.toFixed(2)}×`;
    lines.push(
      `${String(row.n).padStart(4)}   ${row.parallelMs.toFixed(1).padStart(11)}   ${row.serialMs.toFixed(1).padStart(9)}   ${speedup.padStart(7)}   ${(0.95 * row.n).toFixed(2).padStart(6)}   ${row.executedParallel}/${row.executedSerial}${row.failure ? `  ${row.failure}` : ''}`,
    );
  }
  lines.push(
    '',
    report.overheadUsPerCall === null
      ? `Kernel overhead: FAILED (${report.overheadFailure ?? 'unknown'})`
      : `Kernel overhead: ${report.overheadUsPerCall.toFixed(2)} µs per call over ${report.overheadCalls} no-op calls (goal < 100 µs)`,
  );
  if (report.devices !== undefined) lines.push('', `Devices: ${JSON.stringify(report.devices)}`);
  if (report.storeChanges !== undefined)
    lines.push('', `Changes made elsewhere: ${JSON.stringify(report.storeChanges)}`);
  if (report.ui !== undefined) lines.push('', uiLine(report.ui));
  return lines.join('\n');
}

async function main(): Promise<void> {
  const json = process.argv.includes('--json');
  const signal = AbortSignal.timeout(BENCH_TIMEOUT_MS);
  const batch: BatchBenchRow[] = [];
  for (const n of SIZES) batch.push(await benchBatch({ n, signal }));
  const overhead = await benchOverhead({ batches: 2_000, batchSize: 16, signal });
  const report: BenchReport = {
    batch,
    overheadUsPerCall: overhead.usPerCall,
    overheadCalls: overhead.calls,
    ...(overhead.failure !== undefined ? { overheadFailure: overhead.failure } : {}),
    devices: await devicesEntry(),
    storeChanges: await storeChangesEntry(),
    ui: await uiEntry(),
  };
  process.stdout.write(json ? `${JSON.stringify(report)}\n` : `${table(report)}\n`);
  if (batch.some((row) => row.failure !== undefined) || overhead.failure !== undefined) process.exitCode = 1;
  if (typeof report.ui === 'object' && report.ui !== null && 'failed' in report.ui) process.exitCode = 1;
  if (typeof report.storeChanges === 'object' && report.storeChanges !== null && 'failed' in report.storeChanges)
    process.exitCode = 1;
}

await main();
