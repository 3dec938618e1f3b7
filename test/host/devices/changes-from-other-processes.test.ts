import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.ts';
import { startSimProcess } from '../../helpers/start-sim-process.ts';
import { callTool, devicesWhen, startTestHost, tempDataDir } from './host-rig.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function cli(args: string[], dataDir: string): Promise<void> {
  const run = await runCli([...args, '--data-dir', dataDir]);
  if (run.code !== 0) throw new Error(`home-agent ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
}

describe('a host and the CLI on one data folder', () => {
  it('applies a grant or revocation made by another process to the very next call, with no waiting', async () => {
    const data = tempDataDir();
    cleanups.push(() => data.remove());
    const sim = await startSimProcess({ kinds: ['lamp'] });
    cleanups.push(() => sim.stop());
    await cli(['devices', 'pair', sim.devices[0]!.path, '--yes'], data.dir);
    // An hour between looks: only the check made before each call can see what the CLI did.
    const { host } = await startTestHost({ dataDir: data.dir, storePollMs: 3_600_000 });
    cleanups.push(() => host.dispose());
    await devicesWhen(host, (devices) => devices.some((device) => device.id === 'lamp-1' && device.online));
    expect(await callTool(host, 'lamp__set', { device_id: 'lamp-1', on: true })).toMatchObject({
      ok: false,
      error: { reason: 'unauthorized' },
    });

    await cli(['devices', 'grant', 'lamp-1', 'set'], data.dir);
    expect(await callTool(host, 'lamp__set', { device_id: 'lamp-1', on: true })).toMatchObject({ ok: true });
    expect(await sim.waitForState('lamp-1', (state) => state.on === true)).toMatchObject({ on: true });

    await cli(['devices', 'revoke', 'lamp-1', 'set'], data.dir);
    const refused = await callTool(host, 'lamp__set', { device_id: 'lamp-1', on: false });
    expect(refused).toMatchObject({ ok: false, error: { reason: 'unauthorized' } });
    expect(JSON.stringify(refused)).toContain('set is not granted on lamp-1');
  });

  it('shows a device paired, renamed and forgotten by the CLI live, announcing each change', async () => {
    const data = tempDataDir();
    cleanups.push(() => data.remove());
    const sim = await startSimProcess({ kinds: ['lamp'] });
    cleanups.push(() => sim.stop());
    const { host, notices } = await startTestHost({ dataDir: data.dir });
    cleanups.push(() => host.dispose());
    expect((await host.handlers['devices/list']({})).devices).toEqual([]);

    await cli(['devices', 'pair', sim.devices[0]!.path, '--yes', '--alias', 'Desk lamp'], data.dir);
    const [paired] = await devicesWhen(host, (devices) => devices[0]?.online === true);
    expect(paired).toMatchObject({ id: 'lamp-1', alias: 'Desk lamp', source: 'paired', granted: [] });
    expect(notices.some((notice) => notice.type === 'devices/changed')).toBe(true);

    await cli(['devices', 'grant', 'lamp-1', '--all'], data.dir);
    const [granted] = await devicesWhen(host, (devices) => (devices[0]?.granted?.length ?? 0) > 0);
    expect(granted?.granted).toEqual(['get', 'set']);

    await cli(['devices', 'rename', 'lamp-1', 'Reading', 'lamp'], data.dir);
    await devicesWhen(host, (devices) => devices[0]?.alias === 'Reading lamp');

    await cli(['devices', 'forget', 'lamp-1'], data.dir);
    await devicesWhen(host, (devices) => devices.length === 0);
    expect(await callTool(host, 'lamp__set', { device_id: 'lamp-1', on: true })).toMatchObject({
      ok: false,
      error: { reason: 'not_found' },
    });
  });

  it('shows a paired device whose id a device named on the command line has, instead of leaving it out silently', async () => {
    const data = tempDataDir();
    cleanups.push(() => data.remove());
    const paired = await startSimProcess({ kinds: ['lamp'] });
    cleanups.push(() => paired.stop());
    const named = await startSimProcess({ kinds: ['lamp'] });
    cleanups.push(() => named.stop());
    await cli(['devices', 'pair', paired.devices[0]!.path, '--yes', '--alias', 'Desk lamp'], data.dir);
    const { host, log } = await startTestHost({ dataDir: data.dir, devices: [{ path: named.devices[0]!.path }] });
    cleanups.push(() => host.dispose());
    const devices = await devicesWhen(host, (list) => list.length === 2);
    expect(devices.map((device) => [device.id, device.source, device.status, device.path])).toEqual([
      ['lamp-1', 'command-line', 'online', named.devices[0]!.path],
      ['lamp-1', 'paired', 'left-out', paired.devices[0]!.path],
    ]);
    expect(devices[1]?.conflict).toContain('named on the command line');
    expect(log.filter((line) => line.includes('left out'))).toHaveLength(1);
    // Forgetting the paired one resolves it.
    expect(await host.handlers['devices/forget']({ deviceId: 'lamp-1' })).toEqual({ forgotten: true });
    expect((await host.handlers['devices/list']({})).devices.map((device) => device.source)).toEqual(['command-line']);
  });
});
