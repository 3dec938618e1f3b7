// `npm run bench [-- --json]`: batch wall time parallel vs forced serial, kernel overhead per call,
// the devices bench, the boards bench, the UI frame bench when they are available, and the soak
// (1,000 turns in one serve), MCP calls over stdio (server-everything), the first tool's start while
// the reply streams (firstTool). With --json, stdout is exactly one JSON object. `--only NAME` (repeatable,
// or `--only a,b`) runs only those entries (ENTRIES below names them); the JSON then holds only their keys.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { benchBatch, benchOverhead, type BatchBenchRow } from './batch-bench.ts';
import type { BoardsBench } from './boards-bench.ts';
import type { MainThreadCpu } from './main-thread-cpu.ts';
import type { UiFramesEntry, UiFramesResult, UiHistoryEntry } from './ui-frames-bench.ts';
import type { SoakBench } from './soak-bench.ts';
import type { ContextBench, ContextRun } from './context-bench.ts';
import type { McpBench } from './mcp-bench.ts';
import type { FirstToolBench } from './first-tool-bench.ts';

const SIZES = [2, 4, 8, 16];
const BENCH_TIMEOUT_MS = 120_000;
/** Its own budget: it may first build the renderer, then starts a host and a browser (six runs, then the history). */
const UI_BENCH_TIMEOUT_MS = 370_000;
/** Three runs of 1,000 turns (scripted, then the OpenAI adapter with a known and an unknown window). */
const SOAK_TIMEOUT_MS = 1_800_000;
/** Three runs of 1,000 turns through the OpenAI adapter (without a window, with one, learned from a 400). */
const CONTEXT_TIMEOUT_MS = 1_800_000;

interface BenchReport {
  batch?: BatchBenchRow[];
  /** Null when the run did not execute every call (a failure, not a measurement). */
  overheadUsPerCall?: number | null;
  overheadCalls?: number;
  overheadFailure?: string;
  devices?: unknown;
  /** Simulated Arduino Unos (simavr): firmware sizes, round trip beside wire time, parallel vs serial; or `{ skipped }`/`{ failed }`. */
  boards?: unknown;
  /** Meter reads per second over a pseudo-terminal beside the wire-time limits, `{ skipped }` or `{ failed }`. */
  modbus?: unknown;
  /**
   * UI frame times while a 16-tool batch streams in (the top-level figures), `entries` for 16 and 64
   * tools, and `history` (a 1,000-batch conversation opened and scrolled); or `{ skipped }`/`{ failed }`.
   */
  ui?: unknown;
  /** How soon a running host sees a grant changed by another process: figures, `{ skipped }` or `{ failed }`. */
  storeChanges?: unknown;
  /** 1,000 turns in one `serve`: heap after GC and RSS at 100 and 1,000, time per turn at both ends, store growth; or `{ failed }`. */
  soak?: unknown;
  /** 1,000 turns through the OpenAI adapter without a window, with `--context-tokens 6000`, and learned from a 400; or `{ failed }`. */
  context?: unknown;
  /** One MCP call over stdio beside the same handler in-process (µs), and 8 calls parallel vs serial; or `{ failed }`. */
  mcp?: unknown;
  /** Whole-process start-up beside bare node (startup-bench.ts). */
  startup?: unknown;
  /** Call 0's content_block_stop → its tool/start, and the turn's wall time, early start on vs off; or `{ failed }`. */
  firstTool?: unknown;
  /** A call through Mosquitto and a bridge beside a local port, four bridged devices parallel vs serial, discovering 100; or `{ skipped }`/`{ failed }`. */
  mqtt?: unknown;
  /** A home of 100 simulated devices in 10 rooms: the prompt's tokens with promptDevices `all` beside `rooms-first`; or `{ failed }`. */
  rooms?: unknown;
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

/** The boards bench builds the Arduino examples and runs them in simavr; without the Debian packages it is skipped. */
async function boardsEntry(): Promise<unknown> {
  if (spawnSync('socat', ['-V'], { stdio: 'ignore' }).status !== 0)
    return { skipped: 'socat is not installed (the boards bench also runs simulated lamps on pseudo-terminal pairs)' };
  try {
    const { benchBoards } = await import('./boards-bench.ts');
    return await benchBoards();
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

/** The Modbus bench needs pymodbus (Debian's python3) and socat; without them it is skipped with the apt-get line. */
async function modbusEntry(): Promise<unknown> {
  try {
    const { pymodbusMissing } = await import('../helpers/start-pymodbus.ts');
    const missing = pymodbusMissing();
    if (missing) return { skipped: missing };
    const { benchModbus } = await import('./modbus-bench.ts');
    return await benchModbus();
  } catch (error) {
    return { failed: (error as Error)?.message ?? String(error) };
  }
}

function boardsLine(boards: unknown): string {
  const entry = boards as Partial<BoardsBench> & { skipped?: string; failed?: string };
  if (entry.failed !== undefined) return `Boards: FAILED (${entry.failed})`;
  if (entry.skipped !== undefined) return `Boards: skipped (${entry.skipped})`;
  const { roundTrip, parallel } = entry as BoardsBench;
  return [
    'Boards (ATmega328P examples; simavr paced to 16 MHz, UART 115200 baud):',
    ...(entry.firmware ?? []).map(
      (figures) =>
        `  ${figures.example.padEnd(7)} flash ${figures.flashBytes} B, static RAM ${figures.ramBytes} B, stack at deepest ${figures.stackPeakBytes} B`,
    ),
    `  round trip of lamp get over ${roundTrip.calls} calls: median ${roundTrip.medianMs} ms, p99 ${roundTrip.p99Ms} ms; wire time of its ${roundTrip.requestBytes + roundTrip.responseBytes} bytes ${roundTrip.wireMs} ms (median ${roundTrip.medianOverWire}× wire)`,
    `  ${parallel.devices}: parallel ${parallel.parallelMs} ms, serial ${parallel.serialMs} ms, ${parallel.speedup}× (executed ${parallel.executedParallel}/${parallel.executedSerial}; simulated lamps at ${parallel.simulatedLatencyMs} ms)`,
  ].join('\n');
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

/** The soak runs its own `serve` child; its failure is reported as `{ failed }`, never thrown. */
async function soakEntry(): Promise<unknown> {
  try {
    const { benchSoak } = await import('./soak-bench.ts');
    return await benchSoak({ signal: AbortSignal.timeout(SOAK_TIMEOUT_MS) });
  } catch (error) {
    return { failed: (error as Error)?.message ?? String(error) };
  }
}

/** server-everything over stdio; its failure is reported as `{ failed }`, never thrown. */
async function mcpEntry(): Promise<unknown> {
  try {
    const { benchMcp } = await import('./mcp-bench.ts');
    return await benchMcp({ signal: AbortSignal.timeout(BENCH_TIMEOUT_MS) });
  } catch (error) {
    return { failed: (error as Error)?.message ?? String(error) };
  }
}

/** The first-tool bench runs the real agent against a loopback Anthropic server; its failure is `{ failed }`. */
async function firstToolEntry(): Promise<unknown> {
  try {
    const { benchFirstTool } = await import('./first-tool-bench.ts');
    return await benchFirstTool({ signal: AbortSignal.timeout(BENCH_TIMEOUT_MS) });
  } catch (error) {
    return { failed: (error as Error)?.message ?? String(error) };
  }
}

/** The MQTT bench needs Mosquitto and socat; without them it is skipped with the apt-get line. */
async function mqttEntry(): Promise<unknown> {
  try {
    const { mosquittoMissing } = await import('../helpers/mosquitto.ts');
    const missing =
      mosquittoMissing() ??
      (spawnSync('socat', ['-V'], { stdio: 'ignore' }).status !== 0 ? 'socat is not installed' : undefined);
    if (missing) return { skipped: missing };
    const { benchMqtt } = await import('./mqtt-bench.ts');
    return await benchMqtt();
  } catch (error) {
    return { failed: (error as Error)?.message ?? String(error) };
  }
}

function mcpLine(mcp: unknown): string {
  const entry = mcp as Partial<McpBench> & { failed?: string };
  if (entry.failed !== undefined) return `MCP: FAILED (${entry.failed})`;
  return [
    `MCP, ${entry.server}, ${entry.calls} calls one after another through the kernel's pipeline${entry.failure ? ` (${entry.failure})` : ''}:`,
    `  in-process echo: median ${entry.direct?.medianUs} µs, p99 ${entry.direct?.p99Us} µs`,
    `  MCP echo:        median ${entry.mcp?.medianUs} µs, p99 ${entry.mcp?.p99Us} µs (overhead at the median ${entry.overheadMedianUs} µs)`,
    ...(entry.batches ?? []).map(
      (row) =>
        `  ${row.calls} × ${row.tool} on a trusted server: parallel ${row.parallelMs} ms, serial ${row.serialMs} ms, ${row.speedup === null ? 'FAILED' : `${row.speedup}×`} (executed ${row.executedParallel}/${row.executedSerial})`,
    ),
  ].join('\n');
}

function firstToolLine(firstTool: unknown): string {
  const entry = firstTool as Partial<FirstToolBench> & { failed?: string };
  if (entry.failed !== undefined) return `First tool: FAILED (${entry.failed})`;
  const { on, off, serial } = entry as FirstToolBench;
  return [
    `First tool, ${entry.calls} calls streamed over ${entry.streamMs} ms (Anthropic, loopback), ${entry.toolMs} ms tools, median of ${entry.runs}:`,
    `  call 0's content_block_stop → its tool/start: early on ${on.stopToStartMs} ms (max ${on.maxStopToStartMs}, goal ≤ 5), off ${off.stopToStartMs} ms`,
    `  turn wall time, parallel tools: on ${on.turnWallMs} ms, off ${off.turnWallMs} ms; serial tools: on ${serial.on.turnWallMs} ms, off ${serial.off.turnWallMs} ms`,
  ].join('\n');
}

function soakLine(soak: unknown): string {
  const entry = soak as Partial<SoakBench> & { failed?: string };
  if (entry.failed !== undefined) return `Soak: FAILED (${entry.failed})`;
  const { at100, at1000 } = entry as SoakBench;
  return [
    `Soak, ${entry.turns} turns in one serve (${entry.turn}):`,
    `  turn 100: heap after GC ${at100.heapMb} MB, RSS ${at100.rssMb} MB, store ${at100.databaseBytes} bytes`,
    `  turn ${entry.turns}: heap after GC ${at1000.heapMb} MB, RSS ${at1000.rssMb} MB, store ${at1000.databaseBytes} bytes`,
    `  time per turn: first 100 ${entry.msPerTurnFirst100} ms, last 100 ${entry.msPerTurnLast100} ms (${entry.msPerTurnRatio}×); heap +${entry.heapMbPer100TurnsAfter100} MB per 100 turns; store +${entry.databaseBytesPerTurn} bytes per turn`,
    `  turn 30 to ${entry.turns}: RSS +${entry.rssGrowthMb30To1000} MB, heap +${entry.heapGrowthMb30To1000} MB (goal: RSS ≤ 20 MB)`,
    ...Object.values(entry.windows ?? {}).map(
      (run) =>
        `  window ${run.window}, OpenAI adapter: RSS ${run.points.map((point) => `${point.rssMb} MB at ${point.turn}`).join(', ')} (+${run.rssGrowthMb} MB from turn 30), heap +${run.heapGrowthMb} MB; turn ${run.msPerTurnFirst30} → ${run.msPerTurnLast30} ms`,
    ),
  ].join('\n');
}

/** The context runs its own `serve` children; its failure is reported as `{ failed }`, never thrown. */
async function contextEntry(): Promise<unknown> {
  try {
    const { benchContext } = await import('./context-bench.ts');
    return await benchContext({ signal: AbortSignal.timeout(CONTEXT_TIMEOUT_MS) });
  } catch (error) {
    return { failed: (error as Error)?.message ?? String(error) };
  }
}

function contextLine(context: unknown): string {
  const entry = context as Partial<ContextBench> & { failed?: string };
  if (entry.failed !== undefined) return `Context: FAILED (${entry.failed})`;
  const run = (name: string, figures: ContextRun): string[] => [
    `  ${name} (${figures.window}): ${figures.failedTurns} failed turns, ${figures.http400s} HTTP 400s`,
    `    median per turn: first 30 ${figures.msPerTurnFirst30} ms, last 30 ${figures.msPerTurnLast30} ms (${figures.msPerTurnRatio}×, goal ≤ 1.2×); serve's CPU per turn ${figures.cpuMsPerTurnFirst30} → ${figures.cpuMsPerTurnLast30} ms (${figures.cpuMsPerTurnRatio}×)`,
    `    request bytes: ${Object.entries(figures.requestBytes)
      .map(([turn, bytes]) => `${turn} ${bytes}`)
      .join(', ')}; largest of the last 100 ${figures.requestBytesMaxLast100}`,
    `    RSS ${figures.rssMbAt30} → ${figures.rssMbAt1000} MB (+${figures.rssGrowthMb} MB, goal < 30); heap after GC ${figures.heapMbAt30} → ${figures.heapMbAt1000} MB (goal < 20)`,
  ];
  return [
    `Context, 1,000 turns in one conversation through the OpenAI adapter (${entry.turn}):`,
    ...run('without a window', entry.withoutWindow!),
    ...run('with a 6,000-token window', entry.withWindow!),
    ...run('window learned from a 400', entry.learned!),
  ].join('\n');
}

/** The frame that first draws the batch, the frames while it streams into its panel, and the frame that ends it. */
function phasesText(run: Partial<UiFramesEntry>): string {
  if (run.firstBatchFrameMs === undefined) return 'not recorded';
  const streaming =
    run.streamingP95FrameMs === undefined
      ? 'no frames between'
      : `streaming ${run.streamingFrames} frames p95 ${run.streamingP95FrameMs.toFixed(1)} ms, max ${run.streamingMaxFrameMs?.toFixed(1)} ms, ${run.streamingLongFrames} over 50 ms`;
  return `first ${run.firstBatchFrameMs.toFixed(1)} ms, ${streaming}, end ${run.batchEndFrameMs?.toFixed(1)} ms`;
}

/** The renderer main thread's CPU time over the turn, from its trace (goals at 64 calls: ≤ 350 ms, max task ≤ 16 ms). */
function cpuText(run: Partial<MainThreadCpu>): string {
  return `${run.mainThreadCpuMs?.toFixed(0)} ms over ${run.mainThreadTasks} tasks, max task ${run.mainThreadMaxTaskCpuMs?.toFixed(1)} ms, p95 ${run.mainThreadP95TaskCpuMs?.toFixed(1)} ms`;
}

function uiLine(ui: unknown): string {
  const entry = ui as Partial<UiFramesResult> & { skipped?: string; failed?: string };
  if (entry.failed !== undefined) return `UI frames: FAILED (${entry.failed})`;
  if (entry.skipped !== undefined) return `UI frames: skipped (${entry.skipped})`;
  const lines = (entry.entries ?? [entry as UiFramesEntry]).flatMap((run) => [
    `UI frames, headless Chromium, while a ${run.tools}-tool parallel batch streams in (batch wall ${run.batchWallMs?.toFixed(0)} ms):`,
    `  ${run.frames} frames: median ${run.medianFrameMs?.toFixed(1)} ms, p95 ${run.p95FrameMs?.toFixed(1)} ms, max ${run.maxFrameMs?.toFixed(1)} ms, ${run.longFrames} over 50 ms; event to paint p95 ${run.eventToPaintP95Ms?.toFixed(1)} ms over ${run.events} events`,
    `  idle baseline (2 s): median ${run.idleMedianFrameMs?.toFixed(1)} ms, p95 ${run.idleP95FrameMs?.toFixed(1)} ms`,
    run.floor
      ? `  the same turn drawing nothing of the batch: p95 ${run.floor.p95FrameMs.toFixed(1)} ms, max ${run.floor.maxFrameMs.toFixed(1)} ms, ${run.floor.longFrames} over 50 ms; event to paint p95 ${run.floor.eventToPaintP95Ms.toFixed(1)} ms`
      : `  the same turn drawing nothing of the batch: FAILED (${run.floorFailed ?? 'not measured'})`,
    `  by phase, drawn / drawing nothing: ${phasesText(run)} / ${run.floor ? phasesText(run.floor) : 'not measured'}`,
    `  main thread CPU (trace of a run without the frame recorders): ${cpuText(run)}`,
  ]);
  const history = entry.history as (UiHistoryEntry & { failed?: string }) | undefined;
  if (history?.failed !== undefined) lines.push(`Long conversation: FAILED (${history.failed})`);
  else if (history !== undefined)
    lines.push(
      `Long conversation of ${history.batches} batches: opens in ${history.openMs.toFixed(0)} ms; scrolling ${history.scrollFrames} frames: median ${history.scrollMedianFrameMs.toFixed(1)} ms, p95 ${history.scrollP95FrameMs.toFixed(1)} ms, max ${history.scrollMaxFrameMs.toFixed(1)} ms, ${history.scrollLongFrames} over 50 ms; ${history.turnsInDom} turns in the DOM`,
    );
  return lines.join('\n');
}

function table(report: BenchReport): string {
  const lines: string[] = [];
  if (report.batch !== undefined)
    lines.push(
      'Batch of N tools × 250 ms, real kernel (runBatch), parallel vs forced serial:',
      '',
      '   N   parallel ms   serial ms   speedup   goal ≥   executed (par/ser)',
    );
  for (const row of report.batch ?? []) {
    const speedup = row.speedup === null ? 'FAILED' : `${row.speedup.toFixed(2)}×`;
    lines.push(
      `${String(row.n).padStart(4)}   ${row.parallelMs.toFixed(1).padStart(11)}   ${row.serialMs.toFixed(1).padStart(9)}   ${speedup.padStart(7)}   ${(0.95 * row.n).toFixed(2).padStart(6)}   ${row.executedParallel}/${row.executedSerial}${row.failure ? `  ${row.failure}` : ''}`,
    );
  }
  if (report.overheadUsPerCall !== undefined)
    lines.push(
      '',
      report.overheadUsPerCall === null
        ? `Kernel overhead: FAILED (${report.overheadFailure ?? 'unknown'})`
        : `Kernel overhead: ${report.overheadUsPerCall.toFixed(2)} µs per call over ${report.overheadCalls} no-op calls (goal < 100 µs)`,
    );
  if (report.devices !== undefined) lines.push('', `Devices: ${JSON.stringify(report.devices)}`);
  if (report.boards !== undefined) lines.push('', boardsLine(report.boards));
  if (report.modbus !== undefined) lines.push('', `Modbus: ${JSON.stringify(report.modbus)}`);
  if (report.storeChanges !== undefined)
    lines.push('', `Changes made elsewhere: ${JSON.stringify(report.storeChanges)}`);
  if (report.ui !== undefined) lines.push('', uiLine(report.ui));
  if (report.soak !== undefined) lines.push('', soakLine(report.soak));
  if (report.context !== undefined) lines.push('', contextLine(report.context));
  if (report.mcp !== undefined) lines.push('', mcpLine(report.mcp));
  if (report.firstTool !== undefined) lines.push('', firstToolLine(report.firstTool));
  if (report.mqtt !== undefined) lines.push('', `MQTT: ${JSON.stringify(report.mqtt)}`);
  if (report.rooms !== undefined) lines.push('', `Rooms: ${JSON.stringify(report.rooms)}`);
  if (report.startup !== undefined) lines.push('', `Start-up: ${JSON.stringify(report.startup)}`);
  return lines.join('\n');
}

/**
 * Every bench entry by the name `--only NAME` takes; each fills its own keys of the report. The
 * batch and overhead entries are the kernel's; the rest report `{ skipped }` or `{ failed }` instead
 * of throwing. A new entry is one line here (and its line in `table`).
 */
const ENTRIES: Record<string, (report: BenchReport) => Promise<void>> = {
  batch: async (report) => {
    const signal = AbortSignal.timeout(BENCH_TIMEOUT_MS);
    report.batch = [];
    for (const n of SIZES) report.batch.push(await benchBatch({ n, signal }));
  },
  overhead: async (report) => {
    const overhead = await benchOverhead({
      batches: 2_000,
      batchSize: 16,
      signal: AbortSignal.timeout(BENCH_TIMEOUT_MS),
    });
    report.overheadUsPerCall = overhead.usPerCall;
    report.overheadCalls = overhead.calls;
    if (overhead.failure !== undefined) report.overheadFailure = overhead.failure;
  },
  devices: async (report) => {
    report.devices = await devicesEntry();
  },
  boards: async (report) => {
    report.boards = await boardsEntry();
  },
  modbus: async (report) => {
    report.modbus = await modbusEntry();
  },
  storeChanges: async (report) => {
    report.storeChanges = await storeChangesEntry();
  },
  ui: async (report) => {
    report.ui = await uiEntry();
  },
  soak: async (report) => {
    report.soak = await soakEntry();
  },
  context: async (report) => {
    report.context = await contextEntry();
  },
  mcp: async (report) => {
    report.mcp = await mcpEntry();
  },
  firstTool: async (report) => {
    report.firstTool = await firstToolEntry();
  },
  rooms: async (report) => {
    try {
      const { benchRooms } = await import('./rooms-bench.ts');
      report.rooms = await benchRooms();
    } catch (error) {
      report.rooms = { failed: (error as Error)?.message ?? String(error) };
    }
  },
  mqtt: async (report) => {
    report.mqtt = await mqttEntry();
  },
  startup: async (report) => {
    try {
      const { benchStartup } = await import('./startup-bench.ts');
      report.startup = await benchStartup();
    } catch (error) {
      report.startup = { failed: (error as Error)?.message ?? String(error) };
    }
  },
};

/** The names after `--only` (repeatable; `--only a,b` too); empty: every entry. Exits 2 on an unknown name. */
function chosenEntries(argv: readonly string[]): string[] {
  const names: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--only') names.push(...(argv[++i] ?? '').split(','));
    else if (arg.startsWith('--only=')) names.push(...arg.slice('--only='.length).split(','));
  }
  const unknown = names.filter((name) => !(name in ENTRIES));
  if (unknown.length > 0) {
    process.stderr.write(
      `bench: no entry named ${unknown.map((name) => JSON.stringify(name)).join(', ')}; the entries are ${Object.keys(ENTRIES).join(', ')}\n`,
    );
    process.exit(2);
  }
  return names.length > 0 ? names : Object.keys(ENTRIES);
}

function failed(entry: unknown): boolean {
  return typeof entry === 'object' && entry !== null && 'failed' in entry;
}

async function main(): Promise<void> {
  const json = process.argv.includes('--json');
  const report: BenchReport = {};
  for (const name of chosenEntries(process.argv.slice(2))) await ENTRIES[name]?.(report);
  process.stdout.write(json ? `${JSON.stringify(report)}\n` : `${table(report)}\n`);
  const { batch = [], overheadFailure, ...entries } = report;
  if (batch.some((row) => row.failure !== undefined) || overheadFailure !== undefined) process.exitCode = 1;
  if (Object.values(entries).some(failed)) process.exitCode = 1;
}

await main();
