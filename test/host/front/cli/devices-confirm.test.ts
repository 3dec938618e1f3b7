import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { main } from '../../../../host/front/front-ends.ts';
import { startSimulatedDevices } from '../../../../devices/simulator/start-simulated-devices.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function cli(args: string[]): Promise<{ code: number; stdout: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let text = '';
  stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  stderr.resume();
  const code = await main(args, { stdout, stderr });
  return { code, stdout: text };
}

describe('home-agent devices confirm', () => {
  it('shows a device whose identity changed since pairing and, once confirmed, trusts it again with its grants', async () => {
    const sim = await startSimulatedDevices({ kinds: ['lamp'], latencyMs: 0 });
    cleanups.push(() => sim.close());
    const dataDir = mkdtempSync(path.join(tmpdir(), 'home-agent-confirm-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const lamp = sim.devices[0]!;
    expect((await cli(['devices', 'pair', lamp.path, '--yes', '--data-dir', dataDir])).code).toBe(0);
    expect((await cli(['devices', 'grant', 'lamp-1', 'set', '--data-dir', dataDir])).code).toBe(0);
    expect((await cli(['devices', 'confirm', 'lamp-1', '--yes', '--data-dir', dataDir])).stdout).toContain(
      'nothing to confirm',
    );

    lamp.firmware.reflash('2.0.0');
    const confirmed = await cli(['devices', 'confirm', 'lamp-1', '--yes', '--data-dir', dataDir]);
    expect(confirmed.stdout).toContain('Changed device');
    expect(confirmed.stdout).toContain('firmware 2.0.0');
    expect(confirmed.stdout).toContain('was: id lamp-1, model SimLamp 1, firmware 1.0.0');
    expect(confirmed.code).toBe(0);
    const listed = JSON.parse((await cli(['devices', 'list', '--json', '--data-dir', dataDir])).stdout) as {
      identity: { firmware: string };
      grants: string[];
    }[];
    expect(listed.map((device) => [device.identity.firmware, device.grants])).toEqual([['2.0.0', ['set']]]);
  });
});
