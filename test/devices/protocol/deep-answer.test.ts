import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHost } from '../../../host/app/create-host.ts';
import { ScriptedModel } from '../../../core/models/scripted/scripted-model.ts';
import { DeviceRegistry } from '../../../devices/registry/device-registry.ts';
import { registryDeviceLayer } from '../../helpers/registry-device-layer.ts';
import { parseDeviceFrame } from '../../../devices/protocol/parse-device-frame.ts';
import { scriptedLineDevice, type ScriptedLineDevice } from '../../helpers/scripted-line-device.ts';
import { builtinWaysIn } from '../../../devices/ways-in/builtin-ways-in.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** `[[[…1…]]]`, `depth` arrays deep: about 2 bytes a level, so 5,000 levels fit in one 16 KiB frame. */
function nested(depth: number): string {
  return `${'['.repeat(depth)}1${']'.repeat(depth)}`;
}

async function answer(device: ScriptedLineDevice, index: number, result: string): Promise<void> {
  const request = JSON.parse(await device.line(index)) as { id: number };
  await device.send(`{"id":${request.id},"ok":true,"result":${result}}\n`);
}

describe('a device answer nested thousands deep', () => {
  it('is an invalid frame that fails its call at once, naming the depth', () => {
    const parsed = parseDeviceFrame(`{"id":7,"ok":true,"result":${nested(5000)}}`);
    expect(parsed).toEqual({
      kind: 'invalid',
      problem: 'invalid_json',
      detail: 'the frame is nested more than 64 levels deep; at most 64 are allowed',
      id: 7,
    });
  });

  it('ends the call failed and the turn done, with the journal intact', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'home-agent-deep-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const registry = new DeviceRegistry({ waysIn: builtinWaysIn(), helloTimeoutMs: 1000 });
    const device = scriptedLineDevice();
    const attached = registry.attachConnector(device.connector, { grant: 'all' });
    const identity = { id: 'meter-1', kind: 'meter', model: 'm', firmware: '1' };
    const tools = [{ name: 'read', description: 'read it', parameters: { type: 'object', properties: {} } }];
    await answer(device, 0, JSON.stringify({ device: identity, tools }));
    await attached;
    const host = await createHost({
      dataDir,
      transport: 'cli',
      model: new ScriptedModel({
        replies: [{ toolCalls: [{ name: 'meter__read', args: { device_id: 'meter-1' } }] }, { text: 'done' }],
      }),
      devices: registryDeviceLayer(registry),
      log: () => {},
      version: 'test',
    });
    cleanups.push(() => host.dispose());
    const turn = host.agent.runTurn({ conversationId: 'c1', text: 'read the meter' });
    await answer(device, 1, nested(5000));
    const outcome = await turn;
    expect(outcome).toMatchObject({ reason: 'done' });
    const end = host.store.loadEventsOfType('c1', 'tool/end')[0];
    expect(end).toMatchObject({ ok: false, error: { reason: 'failed' } });
    expect(end?.error?.detail).toContain('nested more than 64 levels');
  });
});
