// Child of the request-body bench: sends `turns` turns of two requests each, whose JSON grows like a
// conversation's whole history, to a loopback server, the body given to fetch as one string or as
// requestBodyOf streams it; prints RSS, the C allocator's main heap and the V8 heap after a full GC
// at turns 30, 100 and the last, as one JSON line. Run with --expose-gc.
import { readFileSync } from 'node:fs';
import { requestBodyOf } from '../../core/models/http/request-body.ts';

const [way, url, turnsText] = process.argv.slice(2);
const turns = Number(turnsText);
const collect = (globalThis as { gc?: () => void }).gc;
if (collect === undefined || (way !== 'string' && way !== 'chunks') || url === undefined || !(turns > 0))
  throw new Error('usage: --expose-gc request-body-child.ts string|chunks URL TURNS');

const mb = (bytes: number): number => Math.round((bytes / 1_048_576) * 10) / 10;

/** RSS of the `[heap]` mapping (glibc's main arena), in MB; undefined without /proc. */
function cHeapMb(): number | undefined {
  try {
    let kilobytes = 0;
    let inHeap = false;
    for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
      if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) inHeap = line.endsWith('[heap]');
      else if (inHeap && line.startsWith('Rss:')) kilobytes += Number(line.split(/\s+/)[1]);
    }
    return mb(kilobytes * 1024);
  } catch {
    // No /proc (not Linux): the figure is left out.
    return undefined;
  }
}

function requestInit(json: string): RequestInit & { duplex?: 'half' } {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (way === 'string') return { method: 'POST', headers, body: json };
  const encoded = requestBodyOf(json);
  if (!('contentLength' in encoded)) return { method: 'POST', headers, body: encoded.body };
  headers['content-length'] = String(encoded.contentLength);
  return { method: 'POST', headers, body: encoded.body, duplex: 'half' };
}

const messages: unknown[] = [{ role: 'system', content: 'You control the lamps of a home. '.repeat(30) }];
const points: { turn: number; rssMb: number; cHeapMb?: number; heapMb: number }[] = [];
let bytes = 0;
for (let turn = 1; turn <= turns; turn += 1) {
  const calls = ['lamp-1', 'lamp-2'].map((device, index) => ({
    id: `call_${turn}_${index}`,
    type: 'function',
    function: { name: 'lamp__set', arguments: JSON.stringify({ device_id: device, on: true }) },
  }));
  messages.push({ role: 'user', content: `Turn ${turn}: switch both lamps on` });
  messages.push({ role: 'assistant', content: null, tool_calls: calls });
  for (const call of calls) messages.push({ role: 'tool', tool_call_id: call.id, content: '{"on":true}' });
  for (let step = 0; step < 2; step += 1) {
    const json = JSON.stringify({ model: 'bench', messages, stream: true });
    bytes = json.length;
    const response = await fetch(url, requestInit(json));
    await response.text();
  }
  messages.push({ role: 'assistant', content: `Both lamps are on (turn ${turn}).` });
  if (turn === 30 || turn === 100 || turn === turns) {
    collect();
    collect();
    const memory = process.memoryUsage();
    const heap = cHeapMb();
    points.push({
      turn,
      rssMb: mb(memory.rss),
      ...(heap !== undefined ? { cHeapMb: heap } : {}),
      heapMb: mb(memory.heapUsed),
    });
  }
}
process.stdout.write(`${JSON.stringify({ way, requestBytesAtEnd: bytes, points })}\n`);
