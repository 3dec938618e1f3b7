import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { databaseFileOf } from '../../host/config/data-dir.ts';
import { startServeChild, type ServeChild } from './serve-child.ts';
import { benchRequestBodies, type RequestBodyBench } from './request-body-memory.ts';
import { runSoakWindow, type SoakWindowRun } from './soak-windows.ts';

const TURNS = 1_000;
const EARLY = 100;
const FIRST = 30;
const TOKEN = 'soak-bench-token-0123456789';

/** Memory of the serve process after a full GC, and the store's size, at one point of the soak. */
export interface SoakPoint {
  turn: number;
  heapMb: number;
  rssMb: number;
  databaseBytes: number;
}

/** The soak entry of the bench: one `serve`, one conversation, 1,000 turns driven over its web API. */
export interface SoakBench {
  turns: number;
  /** Each turn: a parallel batch of two lamp calls on simulated devices (pseudo-terminals), then text. */
  turn: string;
  at30: SoakPoint;
  at100: SoakPoint;
  at1000: SoakPoint;
  /** Mean wall time of a turn (chat/send to its turn/end on the event socket) over the first and the last 100 turns. */
  msPerTurnFirst100: number;
  msPerTurnLast100: number;
  /** Last 100 over first 100: 1 means a turn costs the same with 100 or 1,000 turns of history. */
  msPerTurnRatio: number;
  heapMbPer100TurnsAfter100: number;
  databaseBytesPerTurn: number;
  /** RSS and heap growth from turn 30 to turn 1,000 of this run (goal for RSS: ≤ 20 MB). */
  rssGrowthMb30To1000: number;
  heapGrowthMb30To1000: number;
  /**
   * The same 1,000 turns through the OpenAI adapter and a loopback server, with the window known
   * (`--context-tokens`) and unknown (every request carries the whole history): RSS beside heap at
   * turns 30, 100 and 1,000.
   */
  windows: { known: SoakWindowRun; unknown: SoakWindowRun };
  /**
   * The request body's own part, apart from the rest of the app: 1,000 turns of requests carrying
   * the whole history from two small children, the body as one string beside it streamed in
   * blocks of one size (requestBodyOf), with glibc's main heap beside RSS.
   */
  requestBodies: RequestBodyBench;
}

function scriptOf(turns: number): string {
  const replies = [];
  for (let turn = 0; turn < turns; turn += 1) {
    const on = turn % 2 === 0;
    replies.push(
      {
        toolCalls: [
          { name: 'lamp__set', args: { device_id: 'lamp-1', on } },
          { name: 'lamp__set', args: { device_id: 'lamp-2', on } },
        ],
      },
      { text: `Both lamps are ${on ? 'on' : 'off'}.` },
    );
  }
  return JSON.stringify({ replies });
}

/** Runs the soak in a `serve` child and returns its figures; the child and its folder are gone after. */
export async function benchSoak(options: { signal: AbortSignal }): Promise<SoakBench> {
  const folder = mkdtempSync(path.join(tmpdir(), 'home-agent-soak-'));
  const script = path.join(folder, 'script.json');
  writeFileSync(script, scriptOf(TURNS));
  const dataDir = path.join(folder, 'data');
  let serve: ServeChild | undefined;
  try {
    serve = await startServeChild({
      args: [
        ...['--data-dir', dataDir, '--provider', 'scripted', '--script', script],
        ...['--sim', '--sim-latency-ms', '0', '--static', folder],
      ],
      token: TOKEN,
      signal: options.signal,
    });
    const child = serve;
    const point = async (turn: number): Promise<SoakPoint> => {
      const memory = await child.memory();
      const db = new Database(databaseFileOf(dataDir), { readonly: true });
      const pages = db.pragma('page_count', { simple: true }) as number;
      const pageSize = db.pragma('page_size', { simple: true }) as number;
      db.close();
      const mb = (bytes: number) => Math.round((bytes / 1_048_576) * 10) / 10;
      return { turn, heapMb: mb(memory.heapUsed), rssMb: mb(memory.rss), databaseBytes: pages * pageSize };
    };
    const times: number[] = [];
    let at30: SoakPoint | undefined;
    let at100: SoakPoint | undefined;
    for (let turn = 1; turn <= TURNS; turn += 1) {
      const started = performance.now();
      await child.send('soak', `Turn ${turn}: switch both lamps`);
      times.push(performance.now() - started);
      if (turn === FIRST) at30 = await point(turn);
      if (turn === EARLY) at100 = await point(turn);
    }
    const at1000 = await point(TURNS);
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    const first = mean(times.slice(0, EARLY));
    const last = mean(times.slice(-EARLY));
    const round = (value: number, places = 2) => Math.round(value * 10 ** places) / 10 ** places;
    await serve.stop();
    serve = undefined;
    const known = await runSoakWindow({ window: 'known', turns: TURNS, signal: options.signal });
    const unknown = await runSoakWindow({ window: 'unknown', turns: TURNS, signal: options.signal });
    const requestBodies = await benchRequestBodies({ turns: TURNS, signal: options.signal });
    return {
      turns: TURNS,
      turn: 'chat/send over HTTP → a parallel batch of two lamp__set on simulated lamps (pseudo-terminals, 0 ms latency) → text; one conversation',
      at30: at30!,
      at100: at100!,
      at1000,
      msPerTurnFirst100: round(first),
      msPerTurnLast100: round(last),
      msPerTurnRatio: round(last / first),
      heapMbPer100TurnsAfter100: round(((at1000.heapMb - at100!.heapMb) / (TURNS - EARLY)) * 100),
      databaseBytesPerTurn: Math.round((at1000.databaseBytes - at100!.databaseBytes) / (TURNS - EARLY)),
      rssGrowthMb30To1000: round(at1000.rssMb - at30!.rssMb, 1),
      heapGrowthMb30To1000: round(at1000.heapMb - at30!.heapMb, 1),
      windows: { known, unknown },
      requestBodies,
    };
  } finally {
    await serve?.stop();
    rmSync(folder, { recursive: true, force: true });
  }
}
