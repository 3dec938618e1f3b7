import { describe, expect, it } from 'vitest';
import { mainThreadCpu, type TraceEvent } from './main-thread-cpu.ts';

const PAGE = { pid: 20, tid: 20 };
const BLANK = { pid: 30, tid: 30 };

/** A top-level task at `ts` µs, `dur` µs of wall time and `tdur` µs on a CPU. */
function task(
  where: { pid: number; tid: number },
  ts: number,
  dur: number,
  tdur?: number,
  name = 'ThreadControllerImpl::RunTask',
): TraceEvent {
  return { name, ph: 'X', ts, dur, ...(tdur === undefined ? {} : { tdur }), ...where };
}

// The blank page's renderer is named first: the page's is found by its tasks, not by order.
const threadNames: TraceEvent[] = [
  { name: 'thread_name', ph: 'M', pid: 1, tid: 1, args: { name: 'CrBrowserMain' } },
  { name: 'thread_name', ph: 'M', ...BLANK, args: { name: 'CrRendererMain' } },
  { name: 'thread_name', ph: 'M', ...PAGE, args: { name: 'CrRendererMain' } },
];

describe('mainThreadCpu', () => {
  it('sums the thread time of the top-level tasks of the busiest renderer main thread', () => {
    const events: TraceEvent[] = [
      ...threadNames,
      // The page's renderer: four top-level tasks of 2, 12, 3 and 1 ms of CPU; the 12 ms one has
      // a `RunTask` traced inside it (0.5 ms) and a nested one at its very start, counted in it.
      task(PAGE, 1_000, 4_000, 2_000),
      task(PAGE, 10_000, 30_000, 12_000),
      task(PAGE, 10_000, 1_000, 900, 'RunTask'),
      task(PAGE, 15_000, 2_000, 500, 'RunTask'),
      task(PAGE, 40_000, 5_000, 3_000),
      task(PAGE, 50_000, 1_000, 1_000),
      { name: 'Layout', ph: 'X', ts: 11_000, dur: 5_000, tdur: 4_000, ...PAGE },
      // A blank page's renderer with fewer tasks, and the browser's own thread: neither counted.
      task(BLANK, 2_000, 90_000, 80_000),
      task({ pid: 1, tid: 1 }, 0, 100_000, 70_000),
    ];
    // 2 + 12 + 3 + 1 = 18 ms; the longest 12 ms; the 95th percentile of four (nearest rank: the 4th) 12 ms.
    expect(mainThreadCpu(events)).toEqual({
      mainThreadCpuMs: 18,
      mainThreadMaxTaskCpuMs: 12,
      mainThreadP95TaskCpuMs: 12,
      mainThreadTasks: 4,
    });
  });

  it('takes the 95th percentile by nearest rank over many tasks', () => {
    // Twenty tasks of 1..20 ms of CPU: rank ceil(0.95 × 20) = 19 → 19 ms; the sum 210 ms.
    const events = [
      ...threadNames,
      ...Array.from({ length: 20 }, (_, n) => task(PAGE, n * 100_000, 50_000, (n + 1) * 1_000)),
    ];
    expect(mainThreadCpu(events)).toMatchObject({
      mainThreadCpuMs: 210,
      mainThreadMaxTaskCpuMs: 20,
      mainThreadP95TaskCpuMs: 19,
      mainThreadTasks: 20,
    });
  });

  it('fails, saying why, on a trace without a renderer main thread, without tasks, or without thread time', () => {
    expect(() => mainThreadCpu([task(PAGE, 0, 1_000, 500)])).toThrow(/no renderer main thread/);
    expect(() => mainThreadCpu(threadNames)).toThrow(/no task on the renderer main thread/);
    expect(() => mainThreadCpu([...threadNames, task(PAGE, 0, 1_000, 500), task(PAGE, 2_000, 1_000)])).toThrow(
      /1 of 2 main-thread tasks .* no thread time/,
    );
  });
});
