import { afterEach, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describeBoards } from '../helpers/avr/boards-describe.ts';
import { startLinkedBoard } from '../helpers/avr/linked-board.ts';
import { jsonLines, runCli } from '../helpers/run-cli.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

// ATmega328P data-space addresses (datasheet, register summary): Timer1 drives pin 9's PWM.
const TCCR1A = 0x80;
const OCR1AL = 0x88;
const COM1A1 = 0x80;

function dataFolder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'home-agent-board-cli-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describeBoards('a Lamp board flashed with the Arduino library, through the CLI', () => {
  it('is paired with its identity and tools, gets no grants until granted, then a call dims the LED on its PWM pin', async () => {
    const lamp = await startLinkedBoard({ example: 'Lamp' });
    cleanups.push(() => lamp.close());
    const dir = dataFolder();

    const paired = await runCli(['devices', 'pair', lamp.path, '--yes', '--data-dir', dir]);
    expect(paired.stdout).toContain('id uno-lamp-1, kind lamp, model HomeAgent Lamp (Uno), firmware 1.0.0');
    expect(paired.stdout).toContain('tools: set (parallel-safe), get (parallel-safe)');
    expect(paired.code).toBe(0);

    const script = path.join(dir, 'script.json');
    writeFileSync(
      script,
      JSON.stringify({
        replies: [
          { toolCalls: [{ name: 'lamp__set', args: { device_id: 'uno-lamp-1', on: true, brightness: 40 } }] },
          { text: 'The lamp is on at 40%.' },
        ],
      }),
    );
    const ask = () =>
      runCli(['ask', '--provider', 'scripted', '--script', script, '--data-dir', dir, '--json', 'dim the lamp']);
    const toolEnd = (stdout: string) => jsonLines(stdout).find((event) => event.type === 'tool/end');

    // Paired is not granted: the agent is not offered the tool, a call to it is refused, and the LED stays dark.
    expect(toolEnd((await ask()).stdout)).toMatchObject({ ok: false, error: { reason: 'unauthorized' } });
    expect((await lamp.board.peek(TCCR1A)) & COM1A1).toBe(0);

    expect((await runCli(['devices', 'grant', 'uno-lamp-1', 'set', 'get', '--data-dir', dir])).code).toBe(0);
    const granted = await ask();
    expect(toolEnd(granted.stdout), granted.stderr).toMatchObject({
      ok: true,
      result: { device_id: 'uno-lamp-1', result: { on: true, brightness: 40 } },
    });
    // analogWrite(9, 40% of 255 = 102): Timer1's compare register holds 102 and drives the pin.
    expect(await lamp.board.peek(OCR1AL)).toBe(102);
    expect((await lamp.board.peek(TCCR1A)) & COM1A1).toBe(COM1A1);
  }, 60_000);
});
