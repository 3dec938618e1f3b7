import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import WebSocket from 'ws';
import { databaseFileOf } from '../../host/config/data-dir.ts';

const TURNS = 1_000;
const EARLY = 100;
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
  at100: SoakPoint;
  at1000: SoakPoint;
  /** Mean wall time of a turn (chat/send to its turn/end on the event socket) over the first and the last 100 turns. */
  msPerTurnFirst100: number;
  msPerTurnLast100: number;
  /** Last 100 over first 100: 1 means a turn costs the same with 100 or 1,000 turns of history. */
  msPerTurnRatio: number;
  heapMbPer100TurnsAfter100: number;
  databaseBytesPerTurn: number;
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
  const child = spawn(
    process.execPath,
    [
      '--expose-gc',
      '--import',
      'tsx',
      fileURLToPath(new URL('./soak-serve.ts', import.meta.url)),
      ...['--port', '0', '--token', TOKEN, '--data-dir', dataDir, '--provider', 'scripted', '--script', script],
      ...['--sim', '--sim-latency-ms', '0', '--static', folder],
    ],
    { stdio: ['ignore', 'pipe', 'pipe', 'ipc'], env: { ...process.env, HOME_AGENT_NO_OLLAMA_PROBE: '1' } },
  );
  const stopChild = (): void => void child.kill('SIGKILL');
  options.signal.addEventListener('abort', stopChild, { once: true });
  let socket: WebSocket | undefined;
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let text = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        const found = /serving at (http:\/\/\S+?)#token=/.exec(text);
        if (found) resolve(found[1]!);
      });
      let errors = '';
      child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
      child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${errors}`)));
    });
    // A turn may end before chat/send's answer arrives: ended turns are remembered until asked for.
    const ends = new Map<string, () => void>();
    const ended = new Set<string>();
    socket = new WebSocket(`${url.replace('http', 'ws')}api/events?token=${TOKEN}`);
    socket.on('message', (data: Buffer) => {
      const event = JSON.parse(data.toString()) as { type?: string; turnId?: string };
      if (event.type !== 'turn/end' || event.turnId === undefined) return;
      ended.add(event.turnId);
      ends.get(event.turnId)?.();
    });
    await new Promise<void>((resolve, reject) => {
      socket!.once('open', () => resolve());
      socket!.once('error', reject);
    });
    const send = async (text: string): Promise<void> => {
      const response = await fetch(`${url}api/chat/send`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ conversationId: 'soak', text }),
        signal: options.signal,
      });
      const answer = (await response.json()) as { ok: boolean; result?: { turnId: string } };
      if (!answer.ok || answer.result === undefined) throw new Error(`chat/send failed: ${JSON.stringify(answer)}`);
      const { turnId } = answer.result;
      if (!ended.has(turnId)) await new Promise<void>((resolve) => ends.set(turnId, resolve));
      ends.delete(turnId);
      ended.delete(turnId);
    };
    const point = async (turn: number): Promise<SoakPoint> => {
      const memory = await new Promise<{ heapUsed: number; rss: number }>((resolve) => {
        child.once('message', (message) => resolve(message as { heapUsed: number; rss: number }));
        child.send('memory');
      });
      const db = new Database(databaseFileOf(dataDir), { readonly: true });
      const pages = db.pragma('page_count', { simple: true }) as number;
      const pageSize = db.pragma('page_size', { simple: true }) as number;
      db.close();
      const mb = (bytes: number) => Math.round((bytes / 1_048_576) * 10) / 10;
      return { turn, heapMb: mb(memory.heapUsed), rssMb: mb(memory.rss), databaseBytes: pages * pageSize };
    };
    const times: number[] = [];
    let at100: SoakPoint | undefined;
    for (let turn = 1; turn <= TURNS; turn += 1) {
      const started = performance.now();
      await send(`Turn ${turn}: switch both lamps`);
      times.push(performance.now() - started);
      if (turn === EARLY) at100 = await point(turn);
    }
    const at1000 = await point(TURNS);
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    const first = mean(times.slice(0, EARLY));
    const last = mean(times.slice(-EARLY));
    const round = (value: number, places = 2) => Math.round(value * 10 ** places) / 10 ** places;
    return {
      turns: TURNS,
      turn: 'chat/send over HTTP → a parallel batch of two lamp__set on simulated lamps (pseudo-terminals, 0 ms latency) → text; one conversation',
      at100: at100!,
      at1000,
      msPerTurnFirst100: round(first),
      msPerTurnLast100: round(last),
      msPerTurnRatio: round(last / first),
      heapMbPer100TurnsAfter100: round(((at1000.heapMb - at100!.heapMb) / (TURNS - EARLY)) * 100),
      databaseBytesPerTurn: Math.round((at1000.databaseBytes - at100!.databaseBytes) / (TURNS - EARLY)),
    };
  } finally {
    socket?.close();
    options.signal.removeEventListener('abort', stopChild);
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.send('stop');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      child.kill('SIGKILL');
    }
    rmSync(folder, { recursive: true, force: true });
  }
}
