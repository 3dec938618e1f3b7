import { afterEach, expect, it } from 'vitest';
import { describeBoards } from '../helpers/avr/boards-describe.ts';
import { buildExample } from '../helpers/avr/build-sketch.ts';
import { openListeningBoard, startSimavrBoard, type SimavrBoard } from '../helpers/avr/simavr-board.ts';

let board: SimavrBoard | undefined;
afterEach(async () => {
  await board?.kill();
  board = undefined;
});

describeBoards('the simulated Uno’s serial wire', () => {
  it('carries a byte in 10 bits at the baud rate the sketch set, as 8N1 does on the real chip', async () => {
    board = await startSimavrBoard({ elfPath: (await buildExample('Lamp')).elfPath });
    // Once a hello is answered, the sketch has called Serial.begin(115200).
    const client = await openListeningBoard(board);
    await client.close();
    // The Arduino core sets UBRR0 = (16 MHz / 4 / 115200 - 1) / 2 = 16 with U2X0: a bit is
    // 8 × (16 + 1) = 136 cycles, and 8N1 is a start bit, 8 data bits and a stop bit.
    expect(await board.uartByteCycles()).toBe(136 * 10);
  });
});
