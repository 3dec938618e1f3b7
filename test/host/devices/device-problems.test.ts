import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHost } from '../../../host/app/create-host.ts';
import { attachDevices } from '../../../host/devices/attach-devices.ts';
import { startSimulatedDevices } from '../../../devices/simulator/start-simulated-devices.ts';
import { ScriptedModel } from '../../../core/models/scripted/scripted-model.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('device frame problems in the host', () => {
  it('drops garbage frames without failing calls, counts each one, and logs the first of each kind once', async () => {
    const sim = await startSimulatedDevices({ kinds: ['lamp'], latencyMs: 0 });
    cleanups.push(() => sim.close());
    const dataDir = mkdtempSync(path.join(tmpdir(), 'home-agent-problems-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const log: string[] = [];
    const host = await createHost({
      dataDir,
      transport: 'cli',
      model: new ScriptedModel({ replies: [] }),
      attachDevices: () =>
        attachDevices({
          sim: false,
          devices: [{ path: sim.devices[0]!.path }],
          log: (line) => log.push(line),
          signal: new AbortController().signal,
        }),
      log: (line) => log.push(line),
      version: 'test',
    });
    cleanups.push(() => host.dispose());
    sim.devices[0]!.firmware.faults.garbageBefore = true;
    const context = { conversationId: 'c1', caller: 'test', signal: AbortSignal.timeout(10_000) };
    for (const on of [true, false, true]) {
      expect(await host.toolApi.call(context, 'lamp__set', { device_id: 'lamp-1', on })).toMatchObject({ ok: true });
    }
    const { devices } = await host.handlers['devices/list']({});
    // One garbage line before each of the three answers (the simulator's fault), none before the hello.
    expect(devices[0]?.frameProblems).toEqual({ oversized: 0, invalidJson: 3, invalidFrame: 0 });
    expect(log.filter((line) => line.includes('dropped'))).toHaveLength(1);
    expect(log.find((line) => line.includes('dropped'))).toContain(
      'lamp-1 sent a frame that was dropped (invalid_json',
    );
  });
});
