// The renderer main thread's CPU time from a Chromium trace: thread time (`tdur`), which other
// processes on a busy machine cannot lengthen, unlike wall time (`dur`).

/** One event of a Chromium trace, as much of it as is read here. */
export interface TraceEvent {
  name: string;
  ph: string;
  ts?: number;
  dur?: number;
  /** Thread time of a complete event, in µs: how long the thread ran on a CPU. */
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}

/** The main thread's CPU over the trace: in all, in its longest task, and the tasks' 95th percentile (ms). */
export interface MainThreadCpu {
  mainThreadCpuMs: number;
  mainThreadMaxTaskCpuMs: number;
  mainThreadP95TaskCpuMs: number;
  mainThreadTasks: number;
}

/** The names a task the thread's scheduler runs is traced under (`toplevel`, `devtools.timeline`). */
const TASK_NAMES = new Set(['ThreadControllerImpl::RunTask', 'RunTask']);

/**
 * The CPU time of the renderer main thread (`CrRendererMain`) that ran the most tasks, summed over
 * its top-level tasks (a task traced inside another is part of it, counted once). Throws, saying
 * why, when the trace holds no such thread, no task on it, or a task without thread time: figures
 * from half a trace are not reported.
 */
export function mainThreadCpu(events: readonly TraceEvent[]): MainThreadCpu {
  const mains = events.filter(
    (event) => event.ph === 'M' && event.name === 'thread_name' && event.args?.name === 'CrRendererMain',
  );
  if (mains.length === 0) throw new Error('the trace names no renderer main thread (CrRendererMain)');
  const tasksOf = (main: TraceEvent) =>
    events.filter(
      (event) => event.pid === main.pid && event.tid === main.tid && event.ph === 'X' && TASK_NAMES.has(event.name),
    );
  const tasks = mains.map(tasksOf).sort((a, b) => b.length - a.length)[0]!;
  if (tasks.length === 0) throw new Error('the trace holds no task on the renderer main thread');
  const topLevel = outermost(tasks);
  const untimed = topLevel.filter((task) => task.tdur === undefined).length;
  if (untimed > 0)
    throw new Error(
      `${untimed} of ${topLevel.length} main-thread tasks in the trace have no thread time (tdur): no CPU figures`,
    );
  const cpu = topLevel.map((task) => task.tdur! / 1000).sort((a, b) => a - b);
  return {
    mainThreadCpuMs: round(cpu.reduce((sum, ms) => sum + ms, 0)),
    mainThreadMaxTaskCpuMs: round(cpu.at(-1)!),
    mainThreadP95TaskCpuMs: round(cpu[Math.max(0, Math.ceil(0.95 * cpu.length) - 1)]!),
    mainThreadTasks: cpu.length,
  };
}

/** The tasks not inside another one (by wall time on the same thread). */
function outermost(tasks: readonly TraceEvent[]): TraceEvent[] {
  const ordered = tasks
    .filter((task) => task.ts !== undefined && task.dur !== undefined)
    .sort((a, b) => a.ts! - b.ts! || b.dur! - a.dur!);
  const kept: TraceEvent[] = [];
  let openUntil = Number.NEGATIVE_INFINITY;
  for (const task of ordered) {
    if (task.ts! < openUntil) continue;
    kept.push(task);
    openUntil = task.ts! + task.dur!;
  }
  return kept;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
