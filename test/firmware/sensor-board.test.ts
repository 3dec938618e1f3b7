import { afterEach, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { DeviceRegistry } from '../../devices/registry/device-registry.ts';
import { createDevicesPlugin } from '../../devices/tools/devices-plugin.ts';
import { describeBoards } from '../helpers/avr/boards-describe.ts';
import { startLinkedBoard } from '../helpers/avr/linked-board.ts';
import { runTool } from '../helpers/device-tool-context.ts';
import { startHost } from '../e2e/helpers/start-host.ts';
import { builtinWaysIn } from '../../devices/ways-in/builtin-ways-in.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describeBoards('the Sensor example on a simulated Uno', () => {
  it('reads its analog input as a temperature: 750 mV on a TMP36 is 25 °C', async () => {
    const sensor = await startLinkedBoard({ example: 'Sensor' });
    cleanups.push(() => sensor.close());
    await sensor.board.setAnalog(0, 750);
    const registry = new DeviceRegistry({ waysIn: builtinWaysIn() });
    cleanups.push(() => registry.dispose());
    await registry.attach(sensor.path, { grant: 'all' });
    const read = createDevicesPlugin(registry)
      .tools()
      .find((tool) => tool.name === 'sensor__read')!;
    const outcome = await runTool(read, { device_id: 'uno-sensor-1' });
    // simavr's ADC: floor(750 × 1023 / 5000) = 153. TMP36: (750 mV − 500 mV) / 10 mV per °C = 25 °C,
    // within the 4.9 mV (0.5 °C) step of a 10-bit reading.
    expect(outcome).toMatchObject({ ok: true, value: { device_id: 'uno-sensor-1', result: { raw: 153 } } });
    const { celsius } = (outcome as { value: { result: { celsius: number } } }).value.result;
    expect(Math.abs(celsius - 25)).toBeLessThanOrEqual(0.5);
  }, 60_000);

  it('sends a button press that reaches the app as a device/event notice on serve’s live stream', async () => {
    const sensor = await startLinkedBoard({ example: 'Sensor' });
    cleanups.push(() => sensor.close());
    const dataDir = mkdtempSync(path.join(tmpdir(), 'home-agent-board-serve-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const scriptFile = path.join(dataDir, 'script.json');
    writeFileSync(scriptFile, JSON.stringify({ replies: [{ text: 'ok' }] }));
    // The button is up (pin 2 high through the pull-up) before the app opens the port.
    await sensor.board.setPin('D2', 1);
    const host = await startHost({ dataDir, scriptFile, sim: false, extraArgs: ['--device', sensor.path] });
    cleanups.push(() => host.stop());

    const socket = new WebSocket(`${host.origin.replace('http', 'ws')}api/events?token=${host.token}`);
    cleanups.push(() => socket.close());
    const notices: { type: string; [key: string]: unknown }[] = [];
    const waiters: (() => void)[] = [];
    socket.on('message', (data: Buffer) => {
      notices.push(JSON.parse(data.toString()) as { type: string });
      for (const wake of waiters.splice(0)) wake();
    });
    await new Promise<void>((resolve) => socket.on('open', () => resolve()));
    const noticeOf = async (pressed: boolean) => {
      const find = () =>
        notices.find(
          (notice) => notice.type === 'device/event' && (notice.data as { pressed?: boolean }).pressed === pressed,
        );
      while (!find()) await new Promise<void>((resolve) => waiters.push(resolve));
      return find();
    };

    await sensor.board.setPin('D2', 0);
    expect(await noticeOf(true)).toEqual({
      type: 'device/event',
      deviceId: 'uno-sensor-1',
      event: 'button',
      data: { pressed: true },
    });
    await sensor.board.setPin('D2', 1);
    expect(await noticeOf(false)).toMatchObject({ deviceId: 'uno-sensor-1', event: 'button' });
    // The board's start-up `ready` is the host's business, never a notice.
    expect(notices.filter((notice) => notice.type === 'device/event' && notice.event === 'ready')).toEqual([]);
  }, 90_000);
});
