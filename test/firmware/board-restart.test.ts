import { afterEach, expect, it } from 'vitest';
import { DeviceRegistry } from '../../devices/registry/device-registry.ts';
import { createDevicesPlugin } from '../../devices/tools/devices-plugin.ts';
import { describeBoards } from '../helpers/avr/boards-describe.ts';
import { startLinkedBoard } from '../helpers/avr/linked-board.ts';
import { runTool } from '../helpers/device-tool-context.ts';
import { Disposables, waitForStatus } from '../helpers/pty-pair.ts';
import { builtinWaysIn } from '../../devices/ways-in/builtin-ways-in.ts';

const owned = new Disposables();
afterEach(() => owned.disposeAll());

/** The Lamp sketch on a simulated Uno, attached as uno-lamp-1, and a way to its device tools. */
async function attachLamp() {
  const lamp = owned.add(await startLinkedBoard({ example: 'Lamp' }));
  // A minute of call timeout: only the unplug (or reset) can end the call in time.
  const registry = owned.add(new DeviceRegistry({ waysIn: builtinWaysIn(), callTimeoutMs: 60_000, reconnectIntervalMs: 20 }));
  await registry.attach(lamp.path, { grant: 'all' });
  const session = registry.get('uno-lamp-1')!.session;
  const tools = createDevicesPlugin(registry).tools();
  const tool = (name: string) => tools.find((candidate) => candidate.name === name)!;
  return { lamp, session, tool };
}

describeBoards('a simulated Uno that dies and comes back', () => {
  it('fails the call in flight with device_offline when simavr is killed, then says hello again and is back online through the re-pointed link', async () => {
    const { lamp, session, tool } = await attachLamp();

    // The chip stops with the request in its UART, unanswered: the call is truly in flight.
    const { frozen } = await lamp.board.freezeOnNextRequest();
    const call = runTool(tool('lamp__set'), { device_id: 'uno-lamp-1', on: true });
    await frozen;
    await lamp.kill();
    expect(await call).toMatchObject({ ok: false, reason: 'device_offline' });
    expect(session.status).toBe('offline');

    const back = waitForStatus(session, 'online');
    await lamp.restart();
    await back;
    expect(session.stats.connects).toBe(2);
    // A restarted board starts from its sketch's initial state: the interrupted set never happened.
    expect(await runTool(tool('lamp__get'), { device_id: 'uno-lamp-1' })).toEqual({
      ok: true,
      value: { device_id: 'uno-lamp-1', result: { on: false, brightness: 100 } },
    });
  }, 60_000);

  it('fails the call in flight when the board is reset with its port open, because the sketch says ready when it starts, and greets it again', async () => {
    const { lamp, session, tool } = await attachLamp();

    const { frozen } = await lamp.board.freezeOnNextRequest();
    const call = runTool(tool('lamp__set'), { device_id: 'uno-lamp-1', on: true });
    await frozen;
    const offline = waitForStatus(session, 'offline');
    // The reset button of a board whose USB chip keeps the port (a Nano's CH340): no unplug to see.
    await lamp.board.reset();
    expect(await call).toMatchObject({ ok: false, reason: 'device_offline', detail: expect.stringContaining('restarted') });
    await offline;
    await waitForStatus(session, 'online');
    expect(session.stats.connects).toBe(2);
    expect(await runTool(tool('lamp__get'), { device_id: 'uno-lamp-1' })).toMatchObject({ ok: true });
  }, 60_000);
});
