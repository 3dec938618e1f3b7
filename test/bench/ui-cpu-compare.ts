// Two builds of the page side by side in one run: the 64-call turn of the UI bench on each, taken in
// turns (A, B, A, B, …) so the machine's load falls on both alike, and the renderer main thread's
// CPU figures from each run's trace (ui-cpu-run.ts), with their medians; FLOOR=1 adds, for each, the
// same turn on a page that draws nothing of the batch.
// Usage: node bin/run-ts.mjs test/bench/ui-cpu-compare.ts DIR_A DIR_B [ROUNDS]
// (each DIR a `vite build --config vite.renderer.config.ts --outDir DIR`; ROUNDS defaults to 3).
import type { MainThreadCpu } from './main-thread-cpu.ts';
import { cpuRun } from './ui-cpu-run.ts';
import { uiBench64Replies } from './ui-frames-bench.ts';

const [dirA, dirB, roundsText] = process.argv.slice(2);
if (dirA === undefined || dirB === undefined) {
  console.error('usage: ui-cpu-compare.ts DIR_A DIR_B [ROUNDS]');
  process.exit(2);
}
const rounds = Number(roundsText ?? 3);
const kinds = [
  { label: `A ${dirA}`, dir: dirA, drawNoBatch: false },
  { label: `B ${dirB}`, dir: dirB, drawNoBatch: false },
  ...(process.env.FLOOR
    ? [
        { label: `A floor`, dir: dirA, drawNoBatch: true },
        { label: `B floor`, dir: dirB, drawNoBatch: true },
      ]
    : []),
];
const runs = new Map<string, MainThreadCpu[]>(kinds.map((kind) => [kind.label, []]));
for (let round = 1; round <= rounds; round += 1)
  for (const kind of kinds) {
    const cpu = await cpuRun({
      replies: uiBench64Replies,
      signal: AbortSignal.timeout(180_000),
      drawNoBatch: kind.drawNoBatch,
      staticDir: kind.dir,
    });
    runs.get(kind.label)!.push(cpu);
    console.log(`round ${round} ${kind.label}: ${JSON.stringify(cpu)}`);
  }

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const FIGURES = ['mainThreadCpuMs', 'mainThreadMaxTaskCpuMs', 'mainThreadP95TaskCpuMs', 'mainThreadTasks'] as const;
for (const [label, list] of runs)
  console.log(`median ${label}: ${FIGURES.map((key) => `${key} ${median(list.map((run) => run[key]))}`).join(', ')}`);
