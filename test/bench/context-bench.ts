import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startLoopbackModelServer } from '../helpers/loopback-model-server.ts';
import { openAiLikeServer, type FakeServed } from '../helpers/context-model-servers.ts';
import { startServeChild, type ServeChild } from './serve-child.ts';

const TURNS = 1_000;
const ENDS = 30;
/** Turns in another conversation first, so the first 30 measured are not the JIT's warm-up. */
const WARM_UP = 30;
const WINDOW = 6_000;
const TOKEN = 'context-bench-token-0123456789';

/** One run of 1,000 turns in one conversation through the OpenAI adapter (after 30 in another, to warm up). */
export interface ContextRun {
  /** How the window was known: not at all (every request carries the whole history), the flag, or a 400. */
  window: string;
  turns: number;
  /** Turns that did not end `done`. */
  failedTurns: number;
  /** Median wall time of a turn (chat/send to turn/end) over the first 30 and the last 30 turns. */
  msPerTurnFirst30: number;
  msPerTurnLast30: number;
  /** Last 30 over first 30 (goal ≤ 1.2). */
  msPerTurnRatio: number;
  /** CPU time the serve process spent per turn over the first 30 and the last 30 turns (less shaken by other load on the machine). */
  cpuMsPerTurnFirst30: number;
  cpuMsPerTurnLast30: number;
  cpuMsPerTurnRatio: number;
  /** The request body of each turn's first model request, in bytes, at a few turns. */
  requestBytes: Record<string, number>;
  /** Largest request body over the last 100 turns. */
  requestBytesMaxLast100: number;
  rssMbAt30: number;
  rssMbAt1000: number;
  /** RSS growth from turn 30 to 1,000 (goal < 30 MB). */
  rssGrowthMb: number;
  /** Heap after a full GC at turn 30 and at 1,000 (goal < 20 MB at 1,000). */
  heapMbAt30: number;
  heapMbAt1000: number;
  /** V8's heap reserved, and memory outside it (buffers), at 1,000. */
  heapTotalMbAt1000: number;
  externalMbAt1000: number;
  /** Model requests answered 400, the warm-up's included (goal: at most one per learned limit). */
  http400s: number;
}

/** The context entry: the same 1,000 turns without a window (as before), with `--context-tokens 6000`, and with the limit learned from a 400. */
export interface ContextBench {
  turn: string;
  withoutWindow: ContextRun;
  withWindow: ContextRun;
  learned: ContextRun;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const round = (value: number, places = 2): number => Math.round(value * 10 ** places) / 10 ** places;
const mb = (bytes: number): number => round(bytes / 1_048_576, 1);

/** Runs one of the three runs (exported for measuring one alone). */
export async function runOnce(options: {
  window: 'none' | 'flag' | 'learned';
  signal: AbortSignal;
}): Promise<ContextRun> {
  const served: FakeServed[] = [];
  const server = await startLoopbackModelServer();
  server.reply(
    openAiLikeServer({ ...(options.window === 'none' ? {} : { limitTokens: WINDOW }), served, model: 'bench-model' }),
  );
  const folder = mkdtempSync(path.join(tmpdir(), 'home-agent-context-bench-'));
  let serve: ServeChild | undefined;
  try {
    serve = await startServeChild({
      args: [
        ...['--data-dir', path.join(folder, 'data'), '--static', folder],
        ...['--provider', 'openai', '--base-url', `${server.url}/v1`, '--model', 'bench-model'],
        ...['--sim', '--sim-latency-ms', '0'],
        ...(options.window === 'flag' ? ['--context-tokens', String(WINDOW)] : []),
      ],
      token: TOKEN,
      signal: options.signal,
    });
    const times: number[] = [];
    const requestBytes: Record<string, number> = {};
    const firstBytes: number[] = [];
    let failedTurns = 0;
    for (let turn = 1; turn <= WARM_UP; turn += 1) await serve.send('warm-up', `Warm-up ${turn}: switch both lamps on`);
    let at30 = await serve.memory();
    const cpu: Record<number, number> = { 0: await serve.cpuMs() };
    for (let turn = 1; turn <= TURNS; turn += 1) {
      const before = served.length;
      const started = performance.now();
      const reason = await serve.send('context', `Turn ${turn}: switch both lamps on`);
      times.push(performance.now() - started);
      if (reason !== 'done') failedTurns += 1;
      const first = served.slice(before).find((entry) => entry.path.endsWith('/chat/completions'));
      firstBytes.push(first?.bodyBytes ?? 0);
      if ([1, 30, 100, 500, 1000].includes(turn)) requestBytes[`turn${turn}`] = first?.bodyBytes ?? 0;
      if (turn === ENDS || turn === TURNS - ENDS || turn === TURNS) cpu[turn] = await serve.cpuMs();
      if (turn === ENDS) at30 = await serve.memory();
    }
    const cpuFirst = (cpu[ENDS]! - cpu[0]!) / ENDS;
    const cpuLast = (cpu[TURNS]! - cpu[TURNS - ENDS]!) / ENDS;
    const at1000 = await serve.memory();
    const first = median(times.slice(0, ENDS));
    const last = median(times.slice(-ENDS));
    return {
      window:
        options.window === 'none'
          ? 'none: every request carries the whole history'
          : options.window === 'flag'
            ? `--context-tokens ${WINDOW} (the server keeps ${WINDOW})`
            : `none given: learned from the server's 400 (it keeps ${WINDOW})`,
      turns: TURNS,
      failedTurns,
      msPerTurnFirst30: round(first),
      msPerTurnLast30: round(last),
      msPerTurnRatio: round(last / first),
      cpuMsPerTurnFirst30: round(cpuFirst),
      cpuMsPerTurnLast30: round(cpuLast),
      cpuMsPerTurnRatio: round(cpuLast / cpuFirst),
      requestBytes,
      requestBytesMaxLast100: Math.max(...firstBytes.slice(-100)),
      rssMbAt30: mb(at30.rss),
      rssMbAt1000: mb(at1000.rss),
      rssGrowthMb: round(mb(at1000.rss) - mb(at30.rss), 1),
      heapMbAt30: mb(at30.heapUsed),
      heapMbAt1000: mb(at1000.heapUsed),
      heapTotalMbAt1000: mb(at1000.heapTotal),
      externalMbAt1000: mb(at1000.external),
      http400s: served.filter((entry) => entry.status === 400).length,
    };
  } finally {
    await serve?.stop();
    await server.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Runs the three runs one after another, each in its own `serve` child and data folder. */
export async function benchContext(options: { signal: AbortSignal }): Promise<ContextBench> {
  return {
    turn: 'chat/send over HTTP → OpenAI adapter → a loopback OpenAI-compatible server (its tokenizer: 4 bytes a token) asks for a parallel batch of two lamp__set on simulated lamps (pseudo-terminals, 0 ms latency) → text; one conversation, 4 simulated devices',
    withoutWindow: await runOnce({ window: 'none', signal: options.signal }),
    withWindow: await runOnce({ window: 'flag', signal: options.signal }),
    learned: await runOnce({ window: 'learned', signal: options.signal }),
  };
}
