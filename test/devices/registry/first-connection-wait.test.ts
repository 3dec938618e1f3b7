import { afterEach, describe, expect, it } from 'vitest';
import { FIRST_CONNECTION_MS, firstConnectionWaitMs } from '../../../devices/registry/first-connection-wait.ts';
import { DeviceRegistry } from '../../../devices/registry/device-registry.ts';
import { builtinWaysIn } from '../../../devices/ways-in/builtin-ways-in.ts';
import { Disposables } from '../../helpers/pty-pair.ts';
import { scriptedLineDevice, type ScriptedLineDevice } from '../../helpers/scripted-line-device.ts';

describe('firstConnectionWaitMs', () => {
  it('waits FIRST_CONNECTION_MS at the first call, and for the rest of that time at a call while it runs', () => {
    expect(firstConnectionWaitMs({ firstCallAt: 1_000, now: 1_000, helloTimeoutMs: 2_000, failed: false })).toBe(
      FIRST_CONNECTION_MS,
    );
    expect(firstConnectionWaitMs({ firstCallAt: 1_000, now: 1_500, helloTimeoutMs: 2_000, failed: false })).toBe(
      FIRST_CONNECTION_MS - 500,
    );
  });

  it('waits the hello timeout for a device whose first connection has had its time, as for any later call', () => {
    expect(
      firstConnectionWaitMs({
        firstCallAt: 0,
        now: FIRST_CONNECTION_MS + 60_000,
        helloTimeoutMs: 2_000,
        failed: false,
      }),
    ).toBe(2_000);
    expect(
      firstConnectionWaitMs({ firstCallAt: 0, now: FIRST_CONNECTION_MS - 100, helloTimeoutMs: 2_000, failed: false }),
    ).toBe(2_000);
  });

  it('waits only the hello timeout for a device whose connection already failed (a refused hello, a held port)', () => {
    expect(firstConnectionWaitMs({ firstCallAt: 1_000, now: 1_000, helloTimeoutMs: 1_500, failed: true })).toBe(1_500);
  });

  it('bounds the first connection at 10 s', () => {
    expect(FIRST_CONNECTION_MS).toBe(10_000);
  });
});

describe('DeviceRegistry.call to a device still making its first connection', () => {
  const owned = new Disposables();
  afterEach(() => owned.disposeAll());
  const lamp = { id: 'lamp-1', kind: 'lamp', model: 'scripted', firmware: '1.0' };
  const set = {
    name: 'set',
    description: 'set it',
    parameters: { type: 'object' as const, properties: {} },
    parallelSafe: false,
    serial: false,
  };

  /** A registry (hello timeout 200 ms) holding a paired lamp attached without waiting, and its scripted device. */
  async function pairedLamp(): Promise<{ registry: DeviceRegistry; device: ScriptedLineDevice }> {
    const registry = owned.add(
      new DeviceRegistry({ waysIn: builtinWaysIn(), helloTimeoutMs: 200, reconnectIntervalMs: 20 }),
    );
    const device = scriptedLineDevice();
    await registry.attachConnector(device.connector, {
      grant: 'all',
      trustedIdentity: lamp,
      knownTools: [set],
      waitOnlineMs: 0,
    });
    return { registry, device };
  }

  /** Answers the `index`-th line the device received, a request, with `result`. */
  async function answer(device: ScriptedLineDevice, index: number, result: unknown): Promise<void> {
    const request = JSON.parse(await device.line(index)) as { id: number };
    await device.send(`${JSON.stringify({ id: request.id, ok: true, result })}\n`);
  }

  it('waits past the hello timeout for its hello, then runs the call', async () => {
    const { registry, device } = await pairedLamp();
    const call = registry.call('lamp-1', 'set', {});
    // The third hello comes two hello timeouts after the first: a call bound by one would have ended.
    await answer(device, 2, { device: lamp, tools: [set] });
    await answer(device, 3, { on: true });
    await expect(call).resolves.toEqual({ on: true });
  });

  it('stops waiting when its hello is refused meanwhile, saying why', async () => {
    const { registry, device } = await pairedLamp();
    const call = registry.call('lamp-1', 'set', {});
    // A hello that takes a channel's tool name: refused, so the device is in trouble, not late: no 10 s wait.
    const chat = { ...set, name: 'chat' };
    await answer(device, 0, { device: { ...lamp, kind: 'output_send' }, tools: [chat] });
    await expect(call).rejects.toMatchObject({
      reason: 'device_offline',
      detail: expect.stringMatching(/^lamp-1 has not come online yet \(hello refused: .+\): nothing was sent to it$/),
    });
  }, 5_000);
});
