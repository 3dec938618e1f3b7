import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openAiLikeServer } from '../helpers/context-model-servers.ts';
import { startLoopbackModelServer } from '../helpers/loopback-model-server.ts';
import { startServeChild, type ChildMemory } from './serve-child.ts';

/** Turns at which memory is sampled (after a full GC); the last is the run's length. */
export const SOAK_SAMPLE_TURNS: readonly number[] = [30, 100, 1_000];
const SOAK_TURNS = 1_000;
const WINDOW_TOKENS = 6_000;
const TOKEN = 'soak-window-token-0123456789';

/** Memory of the serve process after a full GC at one turn, in MB. */
export interface SoakMemoryPoint {
  turn: number;
  rssMb: number;
  heapMb: number;
  /** What V8 holds for its heap (used or not). */
  heapTotalMb: number;
  /** Memory V8 knows of outside its heap (Buffers, ArrayBuffers). */
  externalMb: number;
  arrayBuffersMb: number;
}

/** One conversation of many turns through the OpenAI adapter, with the model's window known or not. */
export interface SoakWindowRun {
  /** `known`: `--context-tokens 6000`; `unknown`: nothing says it, so nothing is left out of a request. */
  window: 'known' | 'unknown';
  turns: number;
  failedTurns: number;
  points: SoakMemoryPoint[];
  /** RSS and heap growth from turn 30 to the last turn (goal for RSS: ≤ 20 MB at 1,000 turns). */
  rssGrowthMb: number;
  heapGrowthMb: number;
  /** Median wall time of a turn over the first and the last 30 turns, and CPU of the serve process per turn. */
  msPerTurnFirst30: number;
  msPerTurnLast30: number;
  cpuMsPerTurnFirst30: number;
  cpuMsPerTurnLast30: number;
  /** The largest request body of the last 30 turns. */
  requestBytesMaxLast30: number;
}

const round = (value: number, places = 1): number => Math.round(value * 10 ** places) / 10 ** places;
const mb = (bytes: number): number => round(bytes / 1_048_576);
const median = (values: number[]): number => {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

function pointOf(turn: number, memory: ChildMemory): SoakMemoryPoint {
  return {
    turn,
    rssMb: mb(memory.rss),
    heapMb: mb(memory.heapUsed),
    heapTotalMb: mb(memory.heapTotal),
    externalMb: mb(memory.external),
    arrayBuffersMb: mb(memory.arrayBuffers),
  };
}

/**
 * Runs `turns` turns (default 1,000; fewer to search quickly) in one conversation of one `serve`
 * child against a loopback OpenAI-compatible server, sampling memory at turns 30, 100 and the last.
 */
export async function runSoakWindow(options: {
  window: 'known' | 'unknown';
  turns?: number;
  signal: AbortSignal;
}): Promise<SoakWindowRun> {
  const turns = options.turns ?? SOAK_TURNS;
  const samples = new Set<number>([...SOAK_SAMPLE_TURNS.filter((turn) => turn < turns), turns]);
  const served: { path: string; status: number; bodyBytes: number }[] = [];
  const server = await startLoopbackModelServer();
  server.reply(openAiLikeServer({ served, model: 'soak-model' }));
  const folder = mkdtempSync(path.join(tmpdir(), 'home-agent-soak-window-'));
  try {
    const serve = await startServeChild({
      args: [
        ...['--data-dir', path.join(folder, 'data'), '--static', folder],
        ...['--provider', 'openai', '--base-url', `${server.url}/v1`, '--model', 'soak-model'],
        ...['--sim', '--sim-latency-ms', '0'],
        ...(options.window === 'known' ? ['--context-tokens', String(WINDOW_TOKENS)] : []),
      ],
      token: TOKEN,
      signal: options.signal,
    });
    try {
      const points: SoakMemoryPoint[] = [];
      const times: number[] = [];
      const bodies: number[] = [];
      const cpu = new Map<number, number>([[0, await serve.cpuMs()]]);
      let failedTurns = 0;
      for (let turn = 1; turn <= turns; turn += 1) {
        const before = served.length;
        const started = performance.now();
        if ((await serve.send('soak', `Turn ${turn}: switch both lamps on`)) !== 'done') failedTurns += 1;
        times.push(performance.now() - started);
        bodies.push(Math.max(0, ...served.slice(before).map((entry) => entry.bodyBytes)));
        if (turn === 30 || turn === turns - 30 || turn === turns) cpu.set(turn, await serve.cpuMs());
        if (samples.has(turn)) points.push(pointOf(turn, await serve.memory()));
      }
      const first = points[0]!;
      const last = points[points.length - 1]!;
      return {
        window: options.window,
        turns,
        failedTurns,
        points,
        rssGrowthMb: round(last.rssMb - first.rssMb),
        heapGrowthMb: round(last.heapMb - first.heapMb),
        msPerTurnFirst30: round(median(times.slice(0, 30)), 2),
        msPerTurnLast30: round(median(times.slice(-30)), 2),
        cpuMsPerTurnFirst30: round((cpu.get(30)! - cpu.get(0)!) / 30, 2),
        cpuMsPerTurnLast30: round((cpu.get(turns)! - (cpu.get(turns - 30) ?? cpu.get(0)!)) / 30, 2),
        requestBytesMaxLast30: Math.max(...bodies.slice(-30)),
      };
    } finally {
      await serve.stop();
    }
  } finally {
    await server.close();
    rmSync(folder, { recursive: true, force: true });
  }
}
