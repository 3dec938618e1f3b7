// `npm run bench [-- --json]`: batch wall time parallel vs forced serial, kernel overhead per call,
// and the devices bench when it is available. With --json, stdout is exactly one JSON object.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { benchBatch, benchOverhead, type BatchBenchRow } from './batch-bench.ts';

const SIZES = [2, 4, 8, 16];
const BENCH_TIMEOUT_MS = 120_000;

interface BenchReport {
  batch: BatchBenchRow[];
  /** Null when the run did not execute every call (a failure, not a measurement). */
  overheadUsPerCall: number | null;
  overheadCalls: number;
  overheadFailure?: string;
  devices?: unknown;
}

/** The devices bench needs socat (pseudo-terminal pairs); without it, it is skipped with a note. */
async function devicesEntry(): Promise<unknown> {
  const file = fileURLToPath(new URL('./devices-bench.ts', import.meta.url));
  if (!existsSync(file)) return { skipped: 'test/bench/devices-bench.ts is not there' };
  if (spawnSync('socat', ['-V'], { stdio: 'ignore' }).status !== 0) return { skipped: 'socat is not installed (the devices bench needs pseudo-terminal pairs)' };
  const module = (await import('./devices-bench.ts')) as { benchDevices?: () => Promise<unknown> };
  if (typeof module.benchDevices !== 'function') return { skipped: 'test/bench/devices-bench.ts exports no benchDevices()' };
  try {
    return await module.benchDevices();
  } catch (error) {
    return { failed: (error as Error)?.message ?? String(error) };
  }
}

function table(report: BenchReport): string {
  const lines = ['Batch of N tools × 250 ms, real kernel (runBatch), parallel vs forced serial:', '', '   N   parallel ms   serial ms   speedup   goal ≥   executed (par/ser)'];
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
  };
  process.stdout.write(json ? `${JSON.stringify(report)}\n` : `${table(report)}\n`);
  if (batch.some((row) => row.failure !== undefined) || overhead.failure !== undefined) process.exitCode = 1;
}

await main();
