import { afterEach, expect, it } from 'vitest';
import path from 'node:path';
import { helloResultSchema } from '../../devices/protocol/frame-schema.ts';
import { describeBoards } from '../helpers/avr/boards-describe.ts';
import { buildSketch } from '../helpers/avr/build-sketch.ts';
import { startSimavrBoard, openListeningBoard } from '../helpers/avr/simavr-board.ts';
import { Disposables } from '../helpers/pty-pair.ts';

const owned = new Disposables();
afterEach(() => owned.disposeAll());

const PROBE = path.join(import.meta.dirname, 'sketches/Probe/Probe.ino');

describeBoards('the Arduino library beyond what the examples use', () => {
  it('declares string and ranged arguments and the serial flag, copies strings unescaped, writes decimals of either sign, and writes nothing after a refusal', async () => {
    const probe = await buildSketch(PROBE);
    const board = await startSimavrBoard({ elfPath: probe.elfPath });
    owned.add({ close: () => board.kill() });
    const client = owned.add(await openListeningBoard(board));
    const call = (id: number, tool: string, args: Record<string, unknown>) =>
      client.request(JSON.stringify({ id, op: 'call', tool, args }));

    const hello = await client.request('{"id":1,"op":"hello"}');
    const tools = helloResultSchema.parse(hello.ok && hello.result).tools;
    expect(tools).toEqual([
      {
        name: 'echo',
        description: 'Echo a text.',
        parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
        parallelSafe: true,
        serial: false,
      },
      {
        name: 'decimal',
        description: 'Write a decimal.',
        parameters: {
          type: 'object',
          properties: { value: { type: 'integer' }, places: { type: 'integer', minimum: 0, maximum: 3 } },
          required: ['value', 'places'],
        },
        parallelSafe: false,
        serial: true,
      },
      {
        name: 'refuse',
        description: 'Always refuse.',
        parameters: { type: 'object', properties: {} },
        parallelSafe: false,
        serial: false,
        readOnly: true,
      },
    ]);

    // JSON escapes and \u escapes (to UTF-8) come out as the text they stand for, and back again.
    expect(await call(2, 'echo', { text: 'é "q"\n\\' })).toEqual({
      id: 2,
      ok: true,
      result: { text: 'é "q"\n\\', length: 8 },
    });
    expect(await client.request('{"id":3,"op":"call","tool":"echo","args":{"text":"\\u00e9\\u20ac"}}')).toEqual({
      id: 3,
      ok: true,
      result: { text: 'é€', length: 5 },
    });
    // Cut to the sketch's 12-byte buffer (11 characters and the NUL), with the full length told.
    expect(await call(4, 'echo', { text: 'abcdefghijklmnop' })).toMatchObject({
      result: { text: 'abcdefghijk', length: 16 },
    });
    expect(await call(5, 'echo', { text: 5 })).toMatchObject({ ok: false, error: { reason: 'type', field: 'text' } });

    const decimals = [
      [215, 1, 21.5],
      [-5, 1, -0.5],
      [7, 3, 0.007],
      [-1234, 0, -1234],
    ] as const;
    for (const [index, [value, places, written]] of decimals.entries())
      expect(await call(10 + index, 'decimal', { value, places })).toEqual({
        id: 10 + index,
        ok: true,
        result: { value: written },
      });
    expect(await call(20, 'decimal', { value: 1, places: 4 })).toMatchObject({
      ok: false,
      error: { reason: 'type', field: 'places' },
    });

    // The port may have opened in the middle of the sketch's start-up `ready`: its tail is noise, before this.
    const noiseBefore = client.invalid.length;
    expect(await call(21, 'refuse', {})).toEqual({
      id: 21,
      ok: false,
      error: { reason: 'denied', detail: 'a "quoted" refusal' },
    });
    // The frame after the refusal is the next answer: nothing was written after it.
    expect(await client.request('{"id":22,"op":"hello"}')).toMatchObject({ id: 22, ok: true });
    expect(client.invalid.length).toBe(noiseBefore);
  }, 60_000);
});
