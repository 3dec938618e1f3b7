import { afterEach, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describeBoards } from '../helpers/avr/boards-describe.ts';
import { buildExample, EXAMPLES, LIBRARY, type Example } from '../helpers/avr/build-sketch.ts';
import { runTool as runBuildTool } from '../helpers/avr/cached-build.ts';
import { startSimavrBoard, openListeningBoard } from '../helpers/avr/simavr-board.ts';
import { Disposables } from '../helpers/pty-pair.ts';

const owned = new Disposables();
afterEach(() => owned.disposeAll());

// ATmega328P (datasheet): 32 KB of flash of which the Uno's bootloader keeps 512 bytes; 2 KB of
// SRAM from 0x100, shared by static data (.data + .bss) and the stack.
const FLASH_FOR_SKETCHES = 32 * 1024 - 512;
const SRAM_START = 0x100;
const SRAM_BYTES = 2048;

/** Work for each example that reaches every path of the library: hello, each tool, refusals, overflow, noise. */
const WORKLOAD: Record<Example, string[]> = {
  Lamp: [
    '{"id":2,"op":"call","tool":"set","args":{"on":true,"brightness":40}}',
    '{"id":3,"op":"call","tool":"get","args":{}}',
    '{"id":4,"op":"call","tool":"set","args":{"brightness":"x"}}',
  ],
  Sensor: ['{"id":2,"op":"call","tool":"read","args":{}}'],
  Relay: [
    '{"id":2,"op":"call","tool":"set","args":{"channel":2,"on":true}}',
    '{"id":3,"op":"call","tool":"get","args":{"channel":2}}',
    '{"id":4,"op":"call","tool":"set","args":{"channel":9,"on":true}}',
    '{"id":5,"op":"call","tool":"get","args":{}}',
  ],
  Lock: [
    '{"id":2,"op":"call","tool":"set","args":{"locked":false}}',
    '{"id":3,"op":"call","tool":"get","args":{}}',
    '{"id":4,"op":"call","tool":"set","args":{"locked":"open"}}',
  ],
};
const COMMON = [
  '{"id":1,"op":"hello"}',
  `{"id":90,"op":"call","tool":"get","args":{"pad":"${'x'.repeat(200)}"}}`,
  '{"id":91,"op":"call","tool":{"nested":[[[[[[[[1]]]]]]]]}}',
];

describeBoards('the Arduino library’s examples on an ATmega328P', () => {
  it.each(EXAMPLES)(
    '%s compiles without a warning, fits the flash, keeps its text in flash, never uses the heap, and leaves RAM to spare at its deepest stack',
    async (example) => {
      const built = await buildExample(example);
      expect(built.flashBytes).toBeLessThanOrEqual(FLASH_FOR_SKETCHES);

      // Constant text stays in flash: what is copied to RAM at start (.data) holds no text at all.
      const dataSection = path.join(path.dirname(built.elfPath), 'data.bin');
      await runBuildTool('avr-objcopy', ['-O', 'binary', '-j', '.data', built.elfPath, dataSection]);
      const data = (await readFile(dataSection)).toString('latin1');
      expect(data.match(/[\x20-\x7e]{4,}/g) ?? []).toEqual([]);

      // No heap at all: nothing links malloc (new, String) in, so no call can grow it.
      const symbols = await runBuildTool('avr-nm', [built.elfPath]);
      expect(symbols).not.toMatch(/\b(malloc|realloc|_Znwj)\b/);

      const board = await startSimavrBoard({ elfPath: built.elfPath });
      owned.add({ close: () => board.kill() });
      const client = owned.add(await openListeningBoard(board));
      for (const line of [...COMMON, ...WORKLOAD[example]]) await client.request(line);
      await client.write('\u0000garbage\n');
      await client.request('{"id":99,"op":"hello"}');
      const stack = await board.stackPeak(SRAM_START + built.ramBytes);
      // Half of the 2 KB stays free for the sketch's own variables and calls.
      expect(built.ramBytes + stack).toBeLessThanOrEqual(SRAM_BYTES / 2);
    },
    60_000,
  );

  it('ships as an Arduino library: library.properties names it, for AVR boards, with its header', async () => {
    const properties = await readFile(path.join(LIBRARY, 'library.properties'), 'utf8');
    expect(properties).toMatch(/^name=HomeAgentDevice$/m);
    expect(properties).toMatch(/^version=\d+\.\d+\.\d+$/m);
    expect(properties).toMatch(/^architectures=avr$/m);
    expect(properties).toMatch(/^includes=HomeAgentDevice\.h$/m);
  });
});
