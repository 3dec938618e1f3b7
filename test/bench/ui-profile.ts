// Where the window's main thread spends its time in the UI bench's scenarios: a Chromium trace
// (long tasks broken down by what ran inside them) and a sampled CPU profile (self time per function).
// Usage: node bin/run-ts.mjs test/bench/ui-profile.ts 16|64|history [OUT_DIR] (OUT_DIR keeps the trace and
// profile; UI_PROFILE_INVALIDATIONS=1 adds what invalidated style, layout and paint to the trace;
// UI_STATIC_DIR=DIR serves that build of the page instead of dist/renderer; UI_PROFILE_NO_SAMPLES=1 leaves
// the sampling profiler out, which costs the page's main thread; UI_PROFILE_NO_FRAMES=1 the frame recorder,
// whose requestAnimationFrame loop asks for a main-thread frame every vsync). Times are thread time (CPU) where
// the trace has it.
import { writeFileSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { chromiumLaunchOptions } from '../e2e/helpers/chromium-launch-options.ts';
import { makeHostFolder } from '../e2e/helpers/scripted-replies.ts';
import { startHost } from '../e2e/helpers/start-host.ts';
import { seedHistory } from '../e2e/helpers/seed-history.ts';
import { mainThreadCpu } from './main-thread-cpu.ts';
import { FRAME_RECORDER, batchWarmupDone, uiBench64Replies, uiBenchReplies } from './ui-frames-bench.ts';

const scenario = process.argv[2] ?? '16';
const outDir = process.argv[3];
const CATEGORIES = [
  'toplevel',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.frame',
  'blink.user_timing',
  'v8.execute',
  'v8',
  ...(process.env.UI_PROFILE_INVALIDATIONS ? ['disabled-by-default-devtools.timeline.invalidationTracking'] : []),
];

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: Record<string, unknown> };
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

const folder = await makeHostFolder(
  scenario === '64' ? uiBench64Replies : scenario === 'history' ? [{ text: 'Nothing.' }] : uiBenchReplies,
);
if (scenario === 'history') seedHistory(folder.dataDir, 1000);
const host = await startHost({
  dataDir: folder.dataDir,
  scriptFile: folder.scriptFile,
  extraArgs: [
    ...(scenario === 'history' ? [] : ['--sim-latency-ms', '250']),
    ...(process.env.UI_STATIC_DIR ? ['--static', process.env.UI_STATIC_DIR] : []),
  ],
});
const browser = await chromium.launch({ ...chromiumLaunchOptions });
try {
  const page = await browser.newPage();
  page.setDefaultTimeout(120_000);
  await page.goto(host.url);
  await page.getByTestId('connection-status').filter({ hasText: 'Connected' }).waitFor();
  // The page's start-up batch warm-up is not part of what is traced.
  await batchWarmupDone(page);
  // Without the recorder, a stand-in that records nothing.
  await page.evaluate(
    process.env.UI_PROFILE_NO_FRAMES ? 'window.__uiFrames = { start() {}, stop() { return []; } }' : FRAME_RECORDER,
  );
  const cdp = await page.context().newCDPSession(page);
  const sampling = !process.env.UI_PROFILE_NO_SAMPLES;
  if (sampling) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 1000 });
  }
  await browser.startTracing(page, { categories: CATEGORIES });
  if (sampling) await cdp.send('Profiler.start');
  const t0 = await page.evaluate<number>('performance.now()');
  let frames: number[];
  if (scenario === 'history') {
    await page.getByTestId('conversation-item').first().waitFor();
    await page.evaluate('window.__uiFrames.start()');
    await page.getByTestId('conversation-item').first().click();
    await page.locator('[data-testid="turn"]', { hasText: 'Turn 999, lamps' }).waitFor();
    await page.evaluate(`(async () => {
      const scroller = document.querySelector('.chat-scroll');
      for (let frame = 0; frame < 240; frame += 1) {
        scroller.scrollTop = Math.max(0, scroller.scrollTop - 150);
        await new Promise((resolve) => requestAnimationFrame(resolve));
      }
    })()`);
    frames = await page.evaluate<number[]>('window.__uiFrames.stop()');
  } else {
    await page.getByTestId('composer-input').fill('Check every device and tell every channel.');
    await page.evaluate('window.__uiFrames.start()');
    await page.getByTestId('send-button').click();
    await page.locator('[data-testid="turn"][data-status]:not([data-status="running"])').waitFor();
    frames = await page.evaluate<number[]>('window.__uiFrames.stop()');
  }
  const profile = sampling ? ((await cdp.send('Profiler.stop')) as { profile: CpuProfile }).profile : undefined;
  const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] };
  if (outDir) {
    writeFileSync(`${outDir}/trace-${scenario}.json`, JSON.stringify(trace));
    if (profile) writeFileSync(`${outDir}/profile-${scenario}.cpuprofile`, JSON.stringify(profile));
  }
  const sorted = [...frames].sort((a, b) => a - b);
  console.log(
    `frames ${frames.length}: median ${sorted[Math.floor(sorted.length / 2)]?.toFixed(1)} p95 ${sorted[Math.ceil(0.95 * sorted.length) - 1]?.toFixed(1)} max ${sorted.at(-1)?.toFixed(1)} long ${frames.filter((f) => f > 50).length}; t0 ${t0.toFixed(0)}`,
  );
  console.log('main thread CPU (thread time of its tasks):', mainThreadCpu(trace.traceEvents));
  reportTrace(trace.traceEvents);
  if (profile) reportProfile(profile);
} finally {
  await browser.close();
  await host.stop();
  await folder.remove();
}

/** The renderer's main thread: each task over 10 ms of CPU, and self time by event name over all tasks. */
function reportTrace(events: TraceEvent[]): void {
  const mains = events.filter((event) => event.name === 'thread_name' && event.args?.name === 'CrRendererMain');
  const counts = new Map<string, number>();
  for (const main of mains) {
    const key = `${main.pid}:${main.tid}`;
    counts.set(key, events.filter((event) => `${event.pid}:${event.tid}` === key).length);
  }
  const [mainKey] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0] ?? [];
  const onMain = events
    .filter((event) => `${event.pid}:${event.tid}` === mainKey && event.ph === 'X' && event.dur !== undefined)
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const tasks = onMain.filter((event) => event.name === 'ThreadControllerImpl::RunTask' || event.name === 'RunTask');
  const selfOf = (inside: TraceEvent[]): Map<string, number> => {
    const self = new Map<string, number>();
    const stack: { event: TraceEvent; child: number }[] = [];
    const close = (until: number) => {
      while (stack.length > 0 && stack.at(-1)!.event.ts + stack.at(-1)!.event.dur! <= until) {
        const done = stack.pop()!;
        const name = label(done.event);
        self.set(name, (self.get(name) ?? 0) + cpuOf(done.event) - done.child);
        if (stack.length > 0) stack.at(-1)!.child += cpuOf(done.event);
      }
    };
    for (const event of inside) {
      close(event.ts);
      stack.push({ event, child: 0 });
    }
    close(Number.POSITIVE_INFINITY);
    return self;
  };
  const total = new Map<string, number>();
  let longest: { task: TraceEvent; self: Map<string, number> }[] = [];
  let busy = 0;
  for (const task of tasks) {
    const inside = onMain.filter(
      (event) => event.ts >= task.ts && event.ts + event.dur! <= task.ts + task.dur! && event !== task,
    );
    const self = selfOf(inside);
    busy += cpuOf(task);
    for (const [name, us] of self) total.set(name, (total.get(name) ?? 0) + us);
    if (cpuOf(task) > 10_000) longest.push({ task, self });
  }
  longest = longest.sort((a, b) => cpuOf(b.task) - cpuOf(a.task)).slice(0, 12);
  const first = tasks[0]?.ts ?? 0;
  console.log(`\nmain thread: ${tasks.length} tasks, busy ${(busy / 1000).toFixed(0)} ms of CPU`);
  console.log('self time by event (ms):', top(total, 18));
  for (const { task, self } of longest)
    console.log(
      `task at +${((task.ts - first) / 1000).toFixed(0)} ms: ${(cpuOf(task) / 1000).toFixed(1)} ms of CPU —`,
      top(self, 8),
    );
}

/** An event's thread time where the trace has it, else its wall time (µs). */
function cpuOf(event: TraceEvent): number {
  return event.tdur ?? event.dur!;
}

function label(event: TraceEvent): string {
  const data = event.args?.data;
  if (event.name === 'FunctionCall' || event.name === 'EventDispatch')
    return `${event.name}(${String(data?.type ?? data?.functionName ?? '')})`;
  return event.name;
}

function top(map: Map<string, number>, count: number): string {
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, us]) => `${name} ${(us / 1000).toFixed(1)}`)
    .join(', ');
}

/** Self time per function (name, file:line), from the sampled profile. */
function reportProfile(profile: CpuProfile): void {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  profile.samples.forEach((id, position) => {
    const node = byId.get(id)!;
    const frame = node.callFrame;
    const name = `${frame.functionName || '(anon)'} ${frame.url.split('/').pop() ?? ''}:${frame.lineNumber + 1}`;
    self.set(name, (self.get(name) ?? 0) + (profile.timeDeltas[position] ?? 0));
  });
  console.log('\nJS self time (ms):');
  for (const [name, us] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 30))
    console.log(`  ${(us / 1000).toFixed(1).padStart(7)}  ${name}`);
}
