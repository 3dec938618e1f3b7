// UI frame times while a 16-tool parallel batch streams into the built renderer, served by a real
// `home-agent serve` (simulated devices, 250 ms each) and driven in headless Debian Chromium.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from '@playwright/test';
import { apiContract } from '../../host/contract/api-contract.ts';
import { BATCH_WARMUP_MEASURE } from '../../renderer/views/batch-warmup-measure.ts';
import { callHost } from '../e2e/helpers/call-host.ts';
import { chromiumLaunchOptions } from '../e2e/helpers/chromium-launch-options.ts';
import { makeHostFolder, type HostFolder, type ScriptedReply } from '../e2e/helpers/scripted-replies.ts';
import { startHost, type RunningHost } from '../e2e/helpers/start-host.ts';
import { splitBatchFrames, type BatchFramePhases } from './batch-frame-phases.ts';
import type { MainThreadCpu } from './main-thread-cpu.ts';
import { cpuRun } from './ui-cpu-run.ts';

const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));
export const CHROMIUM = chromiumLaunchOptions.executablePath ?? '/usr/bin/chromium';
export const DEVICE_LATENCY_MS = 250;
const IDLE_MS = 2_000;
const LONG_FRAME_MS = 50;
const BUILD_TIMEOUT_MS = 180_000;
/** Six runs (16 and 64 calls: drawn, floor, traced) and the long conversation; `--only ui` must end within 400 s. */
const BENCH_TIMEOUT_MS = 360_000;
export const STEP_TIMEOUT_MS = 60_000;
export const MESSAGE = 'Check every device and tell every channel.';
const HISTORY_BATCHES = 1_000;

/**
 * 16 parallel-safe calls over the four simulated devices (lamp-1, lamp-2, thermometer-1, display-1)
 * and three distinct output channels: at most one send per channel, else the batch runs serially.
 */
export const uiBenchReplies: ScriptedReply[] = [
  {
    toolCalls: [
      { name: 'lamp__set', args: { device_id: 'lamp-1', on: true } },
      { name: 'lamp__set', args: { device_id: 'lamp-2', on: true } },
      { name: 'thermometer__read', args: { device_id: 'thermometer-1' } },
      { name: 'display__show', args: { device_id: 'display-1', text: 'bench' } },
      { name: 'lamp__get', args: { device_id: 'lamp-1' } },
      { name: 'lamp__get', args: { device_id: 'lamp-2' } },
      { name: 'thermometer__read', args: { device_id: 'thermometer-1' } },
      { name: 'lamp__set', args: { device_id: 'lamp-1', brightness: 60 } },
      { name: 'lamp__set', args: { device_id: 'lamp-2', brightness: 40 } },
      { name: 'thermometer__read', args: { device_id: 'thermometer-1' } },
      { name: 'lamp__get', args: { device_id: 'lamp-1' } },
      { name: 'lamp__get', args: { device_id: 'lamp-2' } },
      { name: 'output_send__chat', args: { text: 'Lamps on, temperature read.' } },
      { name: 'output_send__notifications', args: { text: 'Home check done.' } },
      { name: 'output_send__display_1', args: { text: 'all good' } },
      { name: 'output_list_channels', args: {} },
    ],
  },
  { text: 'All sixteen checks ran; the lamps are on and the temperature is read.' },
];

/** 64 parallel-safe reads and switches spread over the three simulated lamps and thermometer (no channel sends). */
export const uiBench64Replies: ScriptedReply[] = [
  {
    toolCalls: Array.from({ length: 64 }, (_, n) =>
      n % 3 === 0
        ? { name: 'thermometer__read', args: { device_id: 'thermometer-1' } }
        : n % 3 === 1
          ? { name: 'lamp__get', args: { device_id: 'lamp-1' } }
          : { name: 'lamp__set', args: { device_id: 'lamp-2', brightness: n } },
    ),
  },
  { text: 'All sixty-four checks ran.' },
];

/** The frame figures of one run; intervals between consecutive requestAnimationFrame callbacks. */
/**
 * A turn's frames split at its batch (batch-frame-phases.ts), absent when the recording did not hold
 * them: the frame that took the batch's first event (it draws the panel and its first rows), the
 * frames while the rest of the batch streams into the drawn panel (`streaming*`: without the turn's
 * edges, the Send click, the person's message, the panel's first drawing, its end and the reply's
 * text), and the frame that took `batch/end`. The floor has the same, with nothing of the batch drawn.
 */
export interface BatchPhaseFigures {
  firstBatchFrameMs?: number;
  streamingFrames?: number;
  streamingP95FrameMs?: number;
  streamingMaxFrameMs?: number;
  streamingLongFrames?: number;
  batchEndFrameMs?: number;
}

/**
 * The renderer main thread's CPU time from Send to the end of the turn, from a Chromium trace of a
 * run of its own without the frame recorders (ui-cpu-run.ts): its tasks' thread time, which other
 * processes cannot inflate, unlike the wall figures. In all (`mainThreadCpuMs`), the longest task,
 * the 95th percentile of its tasks, and how many tasks.
 */
export type MainThreadCpuFigures = MainThreadCpu;

export interface UiFramesEntry extends BatchPhaseFigures, MainThreadCpuFigures {
  tools: number;
  frames: number;
  medianFrameMs: number;
  p95FrameMs: number;
  maxFrameMs: number;
  longFrames: number;
  idleMedianFrameMs: number;
  idleP95FrameMs: number;
  batchWallMs: number;
  /** From a live event's arrival on the socket to the paint after it (95th percentile, and how many events). */
  eventToPaintP95Ms: number;
  /**
   * From the host's stamp on each event (its `at`) to the same paint (95th percentile): adds the host's
   * recording, the socket, and the time a message waited for a busy page, which the page cannot see.
   */
  hostEventToPaintP95Ms: number;
  events: number;
  /**
   * CPU time Chromium's processes used per second of the window (ms/s), streaming and idle: what the
   * window costs the machine, unlike frame times not lengthened by waiting for a busy CPU.
   */
  cpuMsPerSecond: number;
  idleCpuMsPerSecond: number;
  /**
   * How long the page's start-up drawing of a made-up batch took (`renderer/views/batch-warmup.tsx`):
   * the work it moved out of the frame that draws the first batch, done before the idle baseline.
   */
  batchWarmupMs: number;
  /**
   * The same turn on a fresh host and page that draw none of it: the page drops every event but
   * the turn's start and end before the app sees it. What the machine, the host, the socket and the
   * Send click cost the frames by themselves, measured in the same run: how near the window comes
   * to a page with nothing to draw (absent when that run failed: `floorFailed` says why).
   */
  floor?: UiFramesFloor;
  floorFailed?: string;
}

/** The frames of a page that draws nothing of the batch (see `UiFramesEntry.floor`). */
export interface UiFramesFloor extends BatchPhaseFigures {
  frames: number;
  medianFrameMs: number;
  p95FrameMs: number;
  maxFrameMs: number;
  longFrames: number;
  idleP95FrameMs: number;
  /** From a message's arrival to the paint after it, with nothing drawn for it. */
  eventToPaintP95Ms: number;
}

/** A conversation of many batches, seeded straight into the store: how long it takes to open, and its frames while scrolled. */
export interface UiHistoryEntry {
  batches: number;
  /** From the click on the conversation to its newest turn on screen. */
  openMs: number;
  scrollFrames: number;
  scrollMedianFrameMs: number;
  scrollP95FrameMs: number;
  scrollMaxFrameMs: number;
  scrollLongFrames: number;
  /** CPU time Chromium's processes used per second of the scroll (ms/s). */
  scrollCpuMsPerSecond: number;
  /** Turns in the page's DOM at the end of the scroll (all of them unless the list is virtualised). */
  turnsInDom: number;
}

/**
 * The UI bench: the 16-call figures at the top level (as before), then `entries` (16 and 64 calls)
 * and `history` (the 1,000-batch conversation).
 */
export type UiFramesResult = UiFramesEntry & { entries: UiFramesEntry[]; history: UiHistoryEntry | { failed: string } };

// Plain JavaScript as a string: the bench runs under tsx, whose transform would add helpers
// (`__name`) to a serialised TypeScript function that do not exist in the page. The clock is read
// inside the callback, not taken from its argument: that is the vsync the frame was due at, which
// hides up to a frame of a long task (a 200 ms block measured 183 ms).
export const FRAME_RECORDER = `(() => {
  const state = { stamps: [], recording: false, session: 0 };
  const tick = () => { if (state.recording) state.stamps.push(performance.now()); requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  const intervals = (stamps) => stamps.slice(1).map((time, index) => time - stamps[index]);
  window.__uiFrames = {
    start() { state.stamps = []; state.recording = true; state.session += 1; },
    // The intervals until now; two more frames are still stamped for \`stamps()\` (the batch's phases
    // need the frame after its end, which may be the turn's last).
    stop() {
      const kept = state.stamps.length;
      const until = state.stamps.length + 2;
      const session = state.session;
      state.finished = new Promise((resolve) => {
        const check = () => {
          if (state.session !== session) resolve([]);
          else if (state.stamps.length >= until) { state.recording = false; resolve([...state.stamps]); }
          else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      });
      return intervals(state.stamps.slice(0, kept));
    },
    stamps() { return state.finished; },
    recordFor(ms) {
      state.stamps = []; state.recording = true; state.session += 1;
      return new Promise((resolve) => {
        const check = () => {
          const first = state.stamps[0];
          if (first !== undefined && performance.now() - first >= ms) { state.recording = false; resolve(intervals(state.stamps)); }
          else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      });
    },
  };
})()`;

// Resolves once the turn has ended, told by the page's own mutations: Playwright's waiting would
// query the page every frame, work the idle baseline does not have.
export const TURN_ENDED = `new Promise((resolve) => {
  const ended = () => document.querySelector('[data-testid="turn"][data-status]:not([data-status="running"])');
  if (ended()) return resolve();
  const observer = new MutationObserver(() => { if (ended()) { observer.disconnect(); resolve(); } });
  observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-status'] });
})`;

/**
 * Plain JavaScript for an init script: `setup` runs once, then every handler the page gives a
 * WebSocket's `onmessage` is wrapped so that `wrapper` (a function expression of `handler` and
 * `message`, called as the socket) runs instead, with `handler` to call or not.
 */
function wrapSocketMessages(setup: string, wrapper: string): string {
  return `(() => {
  ${setup}
  const wrap = ${wrapper};
  const own = Object.getOwnPropertyDescriptor(WebSocket.prototype, 'onmessage');
  Object.defineProperty(WebSocket.prototype, 'onmessage', {
    configurable: true,
    get() { return own.get.call(this); },
    set(handler) { own.set.call(this, function (message) { return wrap.call(this, handler, message); }); },
  });
})()`;
}

// Wraps the page's WebSocket handler: each message's arrival, then the first moment after the
// frame that follows it (a timeout queued from that frame's requestAnimationFrame runs after its
// paint). The page sees a message only when its main thread takes it: one that waited behind a long
// task counts from then. So each event's own stamp (`at`, the host's clock, the same machine's) is
// kept too: from it to the same paint covers the host's recording, the socket and that wait.
// It also keeps when the page took the batch's first event and its batch/end (`__batchMarks`), where
// the turn's frames are split (batch-frame-phases.ts).
const EVENT_TO_PAINT_RECORDER = wrapSocketMessages(
  'window.__eventToPaint = []; window.__hostEventToPaint = []; window.__batchMarks = {};',
  `function (handler, message) {
    const arrived = performance.now();
    const result = handler.call(this, message);
    let at;
    let type;
    try { ({ at, type } = JSON.parse(message.data)); } catch { at = undefined; }
    const marks = window.__batchMarks;
    if ((type === 'batch/open' || type === 'batch/start') && marks.firstBatchEventAt === undefined) marks.firstBatchEventAt = arrived;
    if (type === 'batch/end') marks.batchEndAt = arrived;
    requestAnimationFrame(() => setTimeout(() => {
      const painted = performance.now();
      window.__eventToPaint.push(painted - arrived);
      if (typeof at === 'number') window.__hostEventToPaint.push(performance.timeOrigin + painted - at);
    }, 0));
    return result;
  }`,
);

// For the floor: every event but the turn's start and end is dropped before the app sees it, so
// the page draws the person's message and the turn's end and nothing of the batch.
export const DRAW_NO_BATCH = wrapSocketMessages(
  "const kept = new Set(['turn/start', 'turn/end']);",
  `function (handler, message) {
    let type;
    try { type = JSON.parse(message.data).type; } catch { type = undefined; }
    if (typeof type === 'string' && type.includes('/') && !kept.has(type)) return undefined;
    return handler.call(this, message);
  }`,
);

/** Starts a count of the CPU time all of `browser`'s processes use; `perSecond()` gives ms per wall second since. */
export async function chromiumCpu(browser: Browser): Promise<{ perSecond(): Promise<number> }> {
  const session = await browser.newBrowserCDPSession();
  const total = async (): Promise<number> => {
    const { processInfo } = (await session.send('SystemInfo.getProcessInfo')) as { processInfo: { cpuTime: number }[] };
    return processInfo.reduce((sum, process) => sum + process.cpuTime * 1000, 0);
  };
  const started = { cpu: await total(), at: performance.now() };
  return {
    async perSecond() {
      const cpu = await total();
      return round(((cpu - started.cpu) / (performance.now() - started.at)) * 1000);
    },
  };
}

/** Nearest-rank percentile of an ascending list. */
export function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1))]!;
}

export function round(value: number): number {
  return Math.round(value * 100) / 100;
}

/**
 * Builds dist/renderer with vite's own CLI (`home-agent serve` serves it): always, so the figures
 * are of the sources as they are, never of a build left from older ones.
 */
export async function ensureRendererBuilt(signal: AbortSignal): Promise<void> {
  const child = spawn(
    process.execPath,
    ['node_modules/vite/bin/vite.js', 'build', '--config', 'vite.renderer.config.ts', '--logLevel', 'warn'],
    {
      cwd: repositoryRoot,
      stdio: ['ignore', 'ignore', 'pipe'],
      signal: AbortSignal.any([signal, AbortSignal.timeout(BUILD_TIMEOUT_MS)]),
    },
  );
  const stderr: string[] = [];
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (exitCode) => resolve(exitCode));
  });
  if (code !== 0) throw new Error(`building the renderer failed (exit ${code}): ${stderr.join('').slice(-2000)}`);
}

/** The wall time and executed count of the conversation's only batch, from the host's own journal. */
export async function journalBatch(host: RunningHost): Promise<{ wallMs: number; executed: number }> {
  const list = apiContract['conversations/list'].output.safeParse(await callHost(host, 'conversations/list'));
  if (!list.success) throw new Error(`conversations/list answered an unexpected shape: ${list.error.message}`);
  const conversation = list.data.conversations[0];
  if (!conversation) throw new Error('the host stored no conversation');
  const journal = apiContract['conversations/events'].output.safeParse(
    await callHost(host, 'conversations/events', { conversationId: conversation.id }),
  );
  if (!journal.success) throw new Error(`conversations/events answered an unexpected shape: ${journal.error.message}`);
  const ends = journal.data.events.flatMap((event) => (event.type === 'batch/end' ? [event] : []));
  if (ends.length !== 1) throw new Error(`the journal holds ${ends.length} batch/end events, expected 1`);
  return { wallMs: ends[0]!.wallMs, executed: ends[0]!.executed };
}

/** Fails unless the page shows one parallel batch of `tools` rows, each executed and ok. */
export async function checkBatchShown(page: Page, tools: number): Promise<void> {
  const panels = page.getByTestId('batch-panel');
  const panelCount = await panels.count();
  if (panelCount !== 1) throw new Error(`the page shows ${panelCount} batch panels, expected 1`);
  const mode = (await panels.first().getByTestId('batch-mode').textContent())?.trim();
  if (mode !== 'parallel') {
    const reason = (await panels.first().getByTestId('batch-reason').textContent())?.trim();
    throw new Error(
      `the batch ran '${mode}', not parallel (${reason ?? 'no reason shown'}): no parallel batch to measure`,
    );
  }
  const rows = await panels.first().getByTestId('tool-row').count();
  const okRows = await panels.first().locator('[data-testid="tool-row"][data-ok="true"]').count();
  if (rows !== tools || okRows !== tools)
    throw new Error(`the batch shows ${okRows} ok of ${rows} rows, expected ${tools} ok rows`);
}

/**
 * Fails unless the floor's page drew no batch: were the app to take its events another way than the
 * socket's `onmessage`, the filter would miss them and the floor would silently be one more drawn run.
 */
export async function checkNoBatchShown(page: Page): Promise<void> {
  const panels = await page.getByTestId('batch-panel').count();
  if (panels !== 0)
    throw new Error(
      `the page that should draw no batch shows ${panels} batch panels: DRAW_NO_BATCH no longer filters its events`,
    );
}

/**
 * Waits for the page's batch warm-up (`renderer/views/batch-warmup.tsx`, run at its first idle
 * moment) and gives how long it took: what a page does at start-up is not measured as its frames.
 */
export async function batchWarmupDone(page: Page): Promise<number> {
  const handle = await page.waitForFunction(
    (name) => performance.getEntriesByName(name)[0]?.duration,
    BATCH_WARMUP_MEASURE,
    { timeout: STEP_TIMEOUT_MS },
  );
  return Number(await handle.jsonValue());
}

/** The idle baseline, then the frames from Send until the turn is done. */
async function measureFrames(
  page: Page,
  host: RunningHost,
  browser: Browser,
  drawNoBatch: boolean,
): Promise<{
  idle: number[];
  busy: number[];
  eventToPaint: number[];
  hostEventToPaint: number[];
  idleCpu: number;
  busyCpu: number;
  phases: BatchFramePhases | undefined;
  warmupMs: number;
}> {
  await page.addInitScript(EVENT_TO_PAINT_RECORDER);
  if (drawNoBatch) await page.addInitScript(DRAW_NO_BATCH);
  await page.goto(host.url);
  await page.getByTestId('connection-status').filter({ hasText: 'Connected' }).waitFor({ timeout: STEP_TIMEOUT_MS });
  // The page's start-up work ends before the idle baseline.
  const warmupMs = await batchWarmupDone(page);
  await page.evaluate(FRAME_RECORDER);
  const idleCount = await chromiumCpu(browser);
  const idle = await page.evaluate<number[]>(`window.__uiFrames.recordFor(${IDLE_MS})`);
  const idleCpu = await idleCount.perSecond();
  await page.getByTestId('composer-input').fill(MESSAGE);
  await page.evaluate('window.__uiFrames.start()');
  const busyCount = await chromiumCpu(browser);
  await page.getByTestId('send-button').click();
  await page.evaluate(TURN_ENDED);
  const busy = await page.evaluate<number[]>('window.__uiFrames.stop()');
  const stamps = await page.evaluate<number[]>('window.__uiFrames.stamps()');
  const marks = await page.evaluate<{ firstBatchEventAt?: number; batchEndAt?: number }>('window.__batchMarks');
  const busyCpu = await busyCount.perSecond();
  const eventToPaint = await page.evaluate<number[]>('window.__eventToPaint');
  const hostEventToPaint = await page.evaluate<number[]>('window.__hostEventToPaint');
  const status = await page.getByTestId('turn').first().getAttribute('data-status');
  if (status !== 'done') throw new Error(`the turn ended '${status}', not done`);
  const phases =
    marks.firstBatchEventAt !== undefined && marks.batchEndAt !== undefined
      ? splitBatchFrames(stamps, { firstBatchEventAt: marks.firstBatchEventAt, batchEndAt: marks.batchEndAt })
      : undefined;
  return { idle, busy, eventToPaint, hostEventToPaint, idleCpu, busyCpu, phases, warmupMs };
}

/** One entry: a fresh host whose scripted model sends `replies`, measured from Send to the end of the turn. */
async function frameEntry(options: { replies: ScriptedReply[]; signal: AbortSignal }): Promise<UiFramesEntry> {
  const run = await frameRun({ ...options, drawNoBatch: false });
  // A run of its own: the frame recorders' work is not the page's. A failed trace fails the entry.
  const cpu: MainThreadCpuFigures = await cpuRun(options);
  const drawn: UiFramesEntry = { ...run.entry, ...phaseFigures(run.phases), ...cpu };
  try {
    const { entry: floor, phases: floorPhases } = await frameRun({ ...options, drawNoBatch: true });
    return {
      ...drawn,
      floor: {
        frames: floor.frames,
        medianFrameMs: floor.medianFrameMs,
        p95FrameMs: floor.p95FrameMs,
        maxFrameMs: floor.maxFrameMs,
        longFrames: floor.longFrames,
        idleP95FrameMs: floor.idleP95FrameMs,
        eventToPaintP95Ms: floor.eventToPaintP95Ms,
        ...phaseFigures(floorPhases),
      },
    };
  } catch (error) {
    if (options.signal.aborted) throw error;
    return { ...drawn, floorFailed: (error as Error)?.message ?? String(error) };
  }
}

/** The phase fields of an entry (none when the phases were not recorded). */
function phaseFigures(phases: BatchFramePhases | undefined): BatchPhaseFigures {
  if (phases === undefined) return {};
  const sorted = [...phases.streaming].sort((a, b) => a - b);
  return {
    firstBatchFrameMs: round(phases.firstFrameMs),
    streamingFrames: sorted.length,
    ...(sorted.length > 0
      ? {
          streamingP95FrameMs: round(percentile(sorted, 0.95)),
          streamingMaxFrameMs: round(sorted[sorted.length - 1]!),
        }
      : {}),
    streamingLongFrames: sorted.filter((interval) => interval > LONG_FRAME_MS).length,
    batchEndFrameMs: round(phases.endFrameMs),
  };
}

/**
 * One run on a fresh host and browser, and where its batch split the frames; with `drawNoBatch`, the
 * page draws none of the batch (the floor); with `staticDir`, the host serves that build of the page.
 */
export async function frameRun(options: {
  replies: ScriptedReply[];
  signal: AbortSignal;
  drawNoBatch: boolean;
  staticDir?: string;
}): Promise<{ entry: Omit<UiFramesEntry, keyof MainThreadCpuFigures>; phases: BatchFramePhases | undefined }> {
  const { signal, drawNoBatch } = options;
  const tools = options.replies[0]!.toolCalls!.length;
  let folder: HostFolder | undefined;
  let host: RunningHost | undefined;
  let browser: Browser | undefined;
  try {
    folder = await makeHostFolder(options.replies);
    host = await startHost({
      dataDir: folder.dataDir,
      scriptFile: folder.scriptFile,
      extraArgs: [
        '--sim-latency-ms',
        String(DEVICE_LATENCY_MS),
        ...(options.staticDir === undefined ? [] : ['--static', options.staticDir]),
      ],
      signal,
    });
    browser = await chromium.launch({ ...chromiumLaunchOptions, executablePath: CHROMIUM, timeout: STEP_TIMEOUT_MS });
    const page = await browser.newPage();
    // Closing the browser ends every pending Playwright call: that is how the signal stops the run.
    const closeOnAbort = (): void => void browser?.close();
    signal.addEventListener('abort', closeOnAbort, { once: true });
    try {
      const { idle, busy, eventToPaint, hostEventToPaint, idleCpu, busyCpu, phases, warmupMs } = await measureFrames(
        page,
        host,
        browser,
        drawNoBatch,
      );
      if (drawNoBatch) await checkNoBatchShown(page);
      else await checkBatchShown(page, tools);
      const batch = await journalBatch(host);
      if (batch.executed !== tools)
        throw new Error(`the host's journal says ${batch.executed} of ${tools} calls executed`);
      if (busy.length === 0 || idle.length === 0) throw new Error('no animation frames were recorded');
      const sortedBusy = [...busy].sort((a, b) => a - b);
      const sortedIdle = [...idle].sort((a, b) => a - b);
      const sortedPaint = [...eventToPaint].sort((a, b) => a - b);
      const sortedHostPaint = [...hostEventToPaint].sort((a, b) => a - b);
      const entry: Omit<UiFramesEntry, keyof MainThreadCpuFigures> = {
        tools,
        frames: busy.length,
        medianFrameMs: round(percentile(sortedBusy, 0.5)),
        p95FrameMs: round(percentile(sortedBusy, 0.95)),
        maxFrameMs: round(sortedBusy[sortedBusy.length - 1]!),
        longFrames: busy.filter((interval) => interval > LONG_FRAME_MS).length,
        idleMedianFrameMs: round(percentile(sortedIdle, 0.5)),
        idleP95FrameMs: round(percentile(sortedIdle, 0.95)),
        batchWallMs: round(batch.wallMs),
        eventToPaintP95Ms: sortedPaint.length > 0 ? round(percentile(sortedPaint, 0.95)) : 0,
        hostEventToPaintP95Ms: sortedHostPaint.length > 0 ? round(percentile(sortedHostPaint, 0.95)) : 0,
        events: sortedPaint.length,
        cpuMsPerSecond: busyCpu,
        idleCpuMsPerSecond: idleCpu,
        batchWarmupMs: round(warmupMs),
      };
      return { entry, phases };
    } catch (error) {
      if (signal.aborted) throw new Error(`the UI bench was stopped: ${String(signal.reason)}`, { cause: error });
      throw error;
    } finally {
      signal.removeEventListener('abort', closeOnAbort);
    }
  } finally {
    await browser?.close();
    await host?.stop();
    await folder?.remove();
  }
}

/**
 * Frame intervals in headless Chromium: for 16 and then 64 calls, 2 s idle, then while the
 * parallel batch runs to the end of the turn; then the 1,000-batch conversation opened and
 * scrolled. Skips without Chromium; throws when a batch was not every call executed ok in parallel.
 */
export async function benchUiFrames(
  options: { signal?: AbortSignal } = {},
): Promise<UiFramesResult | { skipped: string }> {
  if (!existsSync(CHROMIUM)) return { skipped: `${CHROMIUM} is not installed (the UI bench drives headless Chromium)` };
  const signal = AbortSignal.any([...(options.signal ? [options.signal] : []), AbortSignal.timeout(BENCH_TIMEOUT_MS)]);
  await ensureRendererBuilt(signal);
  const entries = [
    await frameEntry({ replies: uiBenchReplies, signal }),
    await frameEntry({ replies: uiBench64Replies, signal }),
  ];
  let history: UiHistoryEntry | { failed: string };
  try {
    const { benchHistory } = await import('./ui-history-bench.ts');
    history = await benchHistory({ batches: HISTORY_BATCHES, signal });
  } catch (error) {
    history = { failed: (error as Error)?.message ?? String(error) };
  }
  return { ...entries[0]!, entries, history };
}
