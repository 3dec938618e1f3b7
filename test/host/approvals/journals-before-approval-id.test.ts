import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { createHost } from '../../../host/app/create-host.ts';
import { databaseFileOf } from '../../../host/config/data-dir.ts';
import { DeviceRegistry } from '../../../devices/registry/device-registry.ts';
import { startInProcessDevices } from '../../../devices/simulator/start-in-process-devices.ts';
import { ScriptedModel } from '../../../core/models/scripted/scripted-model.ts';
import { emptyFoldedData, foldEvents } from '../../../renderer/state/fold-event.ts';
import { approvalOfCall } from '../../../renderer/state/approvals-reducer.ts';
import { registryDeviceLayer } from '../../helpers/registry-device-layer.ts';
import { runCli } from '../../helpers/run-cli.ts';
import { tempDataDir } from '../devices/host-rig.ts';
import { builtinWaysIn } from '../../../devices/ways-in/builtin-ways-in.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A host on `dataDir` with an in-process relay board, asking the person, its model switching relay-1 on. */
async function hostOn(dataDir: string) {
  const sim = startInProcessDevices({ kinds: ['relay'], latencyMs: 0 });
  cleanups.push(() => sim.close());
  const registry = new DeviceRegistry({ waysIn: builtinWaysIn() });
  for (const device of sim.devices) await registry.attachConnector(device.connector, { grant: 'all' });
  const host = await createHost({
    dataDir,
    transport: 'web',
    model: new ScriptedModel({
      replies: [
        { toolCalls: [{ name: 'relay__set', args: { device_id: 'relay-1', channel: 1, on: true } }] },
        { text: 'done' },
      ],
    }),
    approvalPolicy: 'ask',
    devices: registryDeviceLayer(registry),
    log: () => {},
    version: 'test',
  });
  cleanups.push(() => host.dispose());
  return host;
}

describe('journals written before questions had an approvalId', () => {
  it('still load and fold: the API, the window’s reducers, export and verify', async () => {
    const data = tempDataDir();
    cleanups.push(() => data.remove());
    const recording = await hostOn(data.dir);
    recording.events.subscribe((event) => {
      if (event.type === 'approval/request')
        void recording.handlers['approval/answer']({ approvalId: event.approvalId!, approved: true });
    });
    expect((await recording.agent.runTurn({ conversationId: 'c1', text: 'switch it on' })).reason).toBe('done');
    await recording.dispose();

    // The journal as the host wrote it before this change: the same events, without approvalId.
    const db = new Database(databaseFileOf(data.dir));
    const stripped = db
      .prepare(
        "UPDATE events SET payload = json_remove(payload, '$.approvalId') WHERE type IN ('approval/request', 'approval/end')",
      )
      .run().changes;
    db.close();
    expect(stripped).toBe(2);

    const exported = await runCli(['export', '--data-dir', data.dir]);
    expect([exported.code, exported.stderr]).toEqual([0, '']);
    const verified = await runCli(['verify', '--data-dir', data.dir]);
    expect([verified.code, verified.stderr]).toEqual([0, '']);

    const reading = await hostOn(data.dir);
    const { events } = await reading.handlers['conversations/events']({ conversationId: 'c1' });
    const asked = events.filter((event) => event.type === 'approval/request' || event.type === 'approval/end');
    expect(asked.map((event) => [event.type, 'approvalId' in event])).toEqual([
      ['approval/request', false],
      ['approval/end', false],
    ]);
    const view = foldEvents(emptyFoldedData, events);
    const call = asked[0]!;
    expect(approvalOfCall(view, { batchId: call.batchId, callId: call.callId })).toMatchObject({
      name: 'relay__set',
      status: 'allowed',
    });
  });
});
