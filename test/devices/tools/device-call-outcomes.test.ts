import { afterEach, describe, expect, it } from 'vitest';
import { DeviceRegistry } from '../../../devices/registry/device-registry.ts';
import { startSimulatedDevices } from '../../../devices/simulator/start-simulated-devices.ts';
import { createDevicesPlugin } from '../../../devices/tools/devices-plugin.ts';
import { runBatch } from '../../../core/batch/run-batch.ts';
import type { AgentEventInput } from '../../../core/events/agent-event.ts';
import { Disposables, waitForLog } from '../../helpers/pty-pair.ts';
import { builtinWaysIn } from '../../../devices/ways-in/builtin-ways-in.ts';

const owned = new Disposables();
afterEach(() => owned.disposeAll());

describe('what is known of device calls a Stop interrupts', () => {
  it('says unknown for the request on the wire and not sent for the one queued behind it on the same port', async () => {
    const sim = owned.add(await startSimulatedDevices({ kinds: ['lamp'], latencyMs: 0 }));
    const registry = owned.add(new DeviceRegistry({ waysIn: builtinWaysIn(), helloTimeoutMs: 1000 }));
    for (const device of sim.devices) await registry.attach(device.path, { grant: 'all' });
    const tools = createDevicesPlugin(registry).tools();
    const set = tools.find((tool) => tool.name === 'lamp__set');
    const lamp = sim.device('lamp-1');
    const release = lamp.firmware.hold();
    owned.add({ dispose: async () => release() });
    const stop = new AbortController();
    const events: AgentEventInput[] = [];
    const batch = runBatch({
      scope: { conversationId: 'c', turnId: 't', signal: stop.signal, emit: (event) => events.push(event) },
      batchId: 'b',
      step: 1,
      calls: [
        { index: 0, callId: 'on', name: 'lamp__set', args: { device_id: 'lamp-1', on: true }, tool: set },
        { index: 1, callId: 'dim', name: 'lamp__set', args: { device_id: 'lamp-1', brightness: 30 }, tool: set },
      ],
      pipeline: { defaultTimeoutMs: 10_000 },
    });
    // The lamp has the first request in hand (it may act on it); the second waits for the port.
    await waitForLog(lamp.firmware, (entry) => entry.type === 'start');
    stop.abort(new Error('the person pressed Stop'));
    const results = await batch;
    expect(results.map((result) => result.callOutcome)).toEqual(['unknown', 'not_sent']);
    const ends = events.filter((event) => event.type === 'tool/end');
    expect(ends.map((event) => (event.type === 'tool/end' ? [event.callId, event.outcome] : []))).toEqual(
      expect.arrayContaining([
        ['on', 'unknown'],
        ['dim', 'not_sent'],
      ]),
    );
  });
});
