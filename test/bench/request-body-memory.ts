import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

/** Memory of a child after a full GC at one turn, in MB; `cHeapMb` is glibc's main heap (Linux). */
export interface RequestBodyPoint {
  turn: number;
  rssMb: number;
  cHeapMb?: number;
  heapMb: number;
}

/** One way of giving fetch a request body, over one child's life. */
export interface RequestBodyRun {
  way: 'string' | 'chunks';
  points: RequestBodyPoint[];
  /** From turn 30 to the last. */
  rssGrowthMb: number;
  cHeapGrowthMb?: number;
}

/**
 * The request-body entry of the soak: the same requests (two per turn, each carrying the whole
 * history, as with an unknown window) from two children, the body given to fetch as one string
 * (fetch encodes it into one block of its size) and as requestBodyOf streams it (blocks of one size).
 */
export interface RequestBodyBench {
  turns: number;
  requestBytesAtEnd: number;
  string: RequestBodyRun;
  chunks: RequestBodyRun;
}

const round = (value: number): number => Math.round(value * 10) / 10;

async function runChild(options: { way: 'string' | 'chunks'; url: string; turns: number; signal: AbortSignal }) {
  const child = spawn(
    process.execPath,
    [
      '--expose-gc',
      '--import',
      'tsx',
      fileURLToPath(new URL('./request-body-child.ts', import.meta.url)),
      ...[options.way, options.url, String(options.turns)],
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], signal: options.signal },
  );
  let out = '';
  let errors = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('exit', resolve);
    child.once('error', reject);
  });
  if (code !== 0) throw new Error(`request-body child (${options.way}) exited with ${code}: ${errors.slice(-2000)}`);
  return JSON.parse(out) as { way: 'string' | 'chunks'; requestBytesAtEnd: number; points: RequestBodyPoint[] };
}

function runOf(result: { way: 'string' | 'chunks'; points: RequestBodyPoint[] }): RequestBodyRun {
  const first = result.points[0]!;
  const last = result.points[result.points.length - 1]!;
  return {
    way: result.way,
    points: result.points,
    rssGrowthMb: round(last.rssMb - first.rssMb),
    ...(first.cHeapMb !== undefined && last.cHeapMb !== undefined
      ? { cHeapGrowthMb: round(last.cHeapMb - first.cHeapMb) }
      : {}),
  };
}

/** Runs both children one after the other against one loopback server; the server is closed after. */
export async function benchRequestBodies(options: { turns: number; signal: AbortSignal }): Promise<RequestBodyBench> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.end('data: [DONE]\n\n'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
    const string = await runChild({ way: 'string', url, turns: options.turns, signal: options.signal });
    const chunks = await runChild({ way: 'chunks', url, turns: options.turns, signal: options.signal });
    return {
      turns: options.turns,
      requestBytesAtEnd: chunks.requestBytesAtEnd,
      string: runOf(string),
      chunks: runOf(chunks),
    };
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
