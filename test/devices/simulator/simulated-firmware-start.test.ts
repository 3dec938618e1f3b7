import { describe, expect, it } from 'vitest';
import { createFirmwares } from '../../../devices/simulator/device-catalog.ts';
import { createMemoryLinePair } from '../../../devices/transport/memory-line-pair.ts';

/** Connects a simulated device to a host end that is already listening; resolves with the host's lines. */
async function firstLines(kind: 'lamp' | 'relay', count: number): Promise<string[]> {
  const [firmware] = createFirmwares({ kinds: [kind], latencyMs: 0 });
  const [deviceEnd, hostEnd] = createMemoryLinePair({ label: kind });
  const lines: string[] = [];
  let done!: () => void;
  const enough = new Promise<void>((resolve) => (done = resolve));
  const host = hostEnd.open({
    onLine: (line) => lines.push(line) === count && done(),
    onOversized: () => undefined,
    onClose: () => undefined,
  });
  await firmware!.connect((handlers) => deviceEnd.open(handlers));
  await host.write('{"id":1,"op":"hello"}\n');
  await enough;
  await firmware!.disconnect();
  return lines;
}

describe('a simulated device starting up', () => {
  it('says ready first, as the Arduino library does, then states its request limit in its hello', async () => {
    const [ready, hello] = await firstLines('lamp', 2);
    expect(ready).toBe('{"event":"ready","data":{}}');
    expect(JSON.parse(hello!)).toMatchObject({ id: 1, ok: true, result: { maxFrameBytes: 4096 } });
  });

  it('says nothing of the kind when it speaks AT lines instead of JSON: its first line answers the host', async () => {
    expect(await firstLines('relay', 1)).toEqual(['ERROR:unknown command']);
  });
});
