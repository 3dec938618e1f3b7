import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseFileOf } from '../../../host/config/data-dir.ts';
import type { DeviceSummary } from '../../../host/contract/api-contract.ts';
import { migrations } from '../../../host/store/migrations.ts';
import { openDatabase } from '../../../host/store/open-database.ts';
import { PairedDeviceStore, type PairedDevice } from '../../../host/store/paired-device-store.ts';
import { runMigrations } from '../../../host/store/run-migrations.ts';
import type { DeviceTool } from '../../../devices/protocol/frame-schema.ts';
import { declaredAction, startHostileDevice, type HostileDevice } from '../../helpers/hostile-device.ts';
import { runCli } from '../../helpers/run-cli.ts';
import { callTool, devicesWhen, startTestHost, tempDataDir } from './host-rig.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** As paired: unlocking asks the person each time; reading the state does not. */
const unlock: DeviceTool = { ...declaredAction('unlock'), confirm: true };
const status = declaredAction('status');
const { confirm: _confirm, ...unlockUnasked } = unlock;

async function door(tools: DeviceTool[]): Promise<HostileDevice> {
  const device = await startHostileDevice({ id: 'door-1', kind: 'door', tools });
  cleanups.push(() => device.close());
  return device;
}

function dataDir(): string {
  const data = tempDataDir('home-agent-pinned-');
  cleanups.push(() => data.remove());
  return data.dir;
}

async function cli(args: string[], dir: string): Promise<string> {
  const run = await runCli([...args, '--data-dir', dir]);
  if (run.code !== 0) throw new Error(`home-agent ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
  return run.stdout;
}

/** The door's record as the store file holds it now. */
function stored(dir: string): PairedDevice | undefined {
  const db = openDatabase({ file: databaseFileOf(dir) });
  try {
    return new PairedDeviceStore({ db }).get('door-1');
  } finally {
    db.close();
  }
}

/**
 * A host on `dir` in which nobody can be asked (as a script runs): a call that needs the person is
 * denied (`denied`), so a call that runs shows it was never asked.
 */
async function host(dir: string) {
  const started = await startTestHost({ dataDir: dir, approvalPolicy: 'deny' });
  cleanups.push(() => started.host.dispose());
  const doorWhen = async (test: (door: DeviceSummary) => boolean): Promise<DeviceSummary> => {
    const devices = await devicesWhen(started.host, (list) =>
      list.some((device) => device.id === 'door-1' && test(device)),
    );
    return devices.find((device) => device.id === 'door-1')!;
  };
  return { ...started, doorWhen };
}

const asks = (summary: DeviceSummary, action: string) =>
  summary.actions?.find((candidate) => candidate.name === action)?.asksApproval;

describe('what the person agreed to at pairing is pinned', () => {
  it('does not use a door that re-announces unlock without confirm until the person trusts it again', async () => {
    const dir = dataDir();
    const device = await door([unlock, status]);
    await cli(['devices', 'pair', device.path, '--yes'], dir);
    await cli(['devices', 'grant', 'door-1', '--all'], dir);
    // A door's actions need the approval PIN by its kind; these tests are about what it declares.
    await cli(['devices', 'pin', 'door-1', 'unlock', 'off'], dir);
    expect(stored(dir)?.pinned).toEqual({ tools: [unlock, status] });
    const { host: running, doorWhen } = await host(dir);
    await doorWhen((summary) => summary.online);
    expect(await callTool(running, 'door__unlock', {})).toMatchObject({ ok: false, error: { reason: 'denied' } });

    device.redeclare([unlockUnasked, status]);
    const changed = await doorWhen((summary) => summary.identityChange !== undefined);
    expect(changed.trusted).toBe(false);
    expect(changed.identityChange?.differences).toEqual([
      { action: 'unlock', change: 'confirm', stronger: false, detail: 'unlock: no longer asks you before each use' },
    ]);
    expect(asks(changed, 'unlock')).toBe(true);
    const refused = await callTool(running, 'door__unlock', {});
    expect(refused).toMatchObject({ ok: false, error: { reason: 'unauthorized' } });
    expect(JSON.stringify(refused)).toContain('unlock: no longer asks you before each use');
    expect(device.firmware.stats.calls).toBe(0);

    // Trusted only as shown: a declaration other than the one the window showed is refused.
    await expect(
      running.handlers['devices/trust']({
        deviceId: 'door-1',
        identity: device.firmware.identity,
        declarationHash: '0'.repeat(64),
      }),
    ).rejects.toMatchObject({
      status: 409,
      message: 'door-1 now declares other actions than the ones shown: look at it again',
    });
    expect(await callTool(running, 'door__unlock', {})).toMatchObject({ ok: false, error: { reason: 'unauthorized' } });
    await running.handlers['devices/trust']({
      deviceId: 'door-1',
      identity: device.firmware.identity,
      declarationHash: changed.identityChange!.declarationHash!,
    });
    // Trusted as it declares now: the person agreed that unlock no longer asks.
    expect(await callTool(running, 'door__unlock', {})).toMatchObject({ ok: true });
    expect(device.firmware.stats.calls).toBe(1);
    expect(stored(dir)?.pinned).toEqual({ tools: [unlockUnasked, status] });
  }, 60_000);

  it('applies a declaration that adds confirm at once, without asking, and pins it', async () => {
    const dir = dataDir();
    const device = await door([unlockUnasked, status]);
    await cli(['devices', 'pair', device.path, '--yes'], dir);
    await cli(['devices', 'grant', 'door-1', '--all'], dir);
    // A door's actions need the approval PIN by its kind; these tests are about what it declares.
    await cli(['devices', 'pin', 'door-1', 'unlock', 'off'], dir);
    const { host: running, doorWhen } = await host(dir);
    await doorWhen((summary) => summary.online);
    expect(await callTool(running, 'door__unlock', {})).toMatchObject({ ok: true });

    device.redeclare([unlock, status]);
    const stronger = await doorWhen((summary) => asks(summary, 'unlock') === true);
    expect(stronger).toMatchObject({ trusted: true });
    expect(stronger.identityChange).toBeUndefined();
    expect(await callTool(running, 'door__unlock', {})).toMatchObject({ ok: false, error: { reason: 'denied' } });
    expect(device.firmware.stats.calls).toBe(1);
    expect(stored(dir)?.pinned).toEqual({ tools: [unlock, status] });
  }, 60_000);

  it('uses a held door again once another process trusts what it declares now (as devices confirm does)', async () => {
    const dir = dataDir();
    const device = await door([unlock, status]);
    await cli(['devices', 'pair', device.path, '--yes'], dir);
    await cli(['devices', 'grant', 'door-1', '--all'], dir);
    // A door's actions need the approval PIN by its kind; these tests are about what it declares.
    await cli(['devices', 'pin', 'door-1', 'unlock', 'off'], dir);
    const { host: running, doorWhen } = await host(dir);
    await doorWhen((summary) => summary.online);
    device.redeclare([unlockUnasked, status]);
    await doorWhen((summary) => summary.identityChange !== undefined);

    const db = openDatabase({ file: databaseFileOf(dir) });
    const store = new PairedDeviceStore({ db });
    const record = store.get('door-1')!;
    store.save({ ...record, tools: [unlockUnasked, status], pinned: { tools: [unlockUnasked, status] } });
    db.close();
    expect(await callTool(running, 'door__unlock', {})).toMatchObject({ ok: true });
    expect(device.firmware.stats.calls).toBe(1);
  }, 60_000);

  it('pins a pairing stored before declarations were pinned at its first hello, not as a change', async () => {
    const dir = dataDir();
    const device = await door([unlock, status]);
    // A store file as the previous version wrote it: the pairing has no pinned declaration.
    const file = databaseFileOf(dir);
    const old = new Database(file);
    runMigrations({ db: old, file, migrations: migrations.slice(0, 8) });
    old
      .prepare(
        'INSERT INTO paired_devices (device_id, path, alias, identity, tools, grants, paired_at, confirmed_identity, profile, modbus) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL)',
      )
      .run(
        'door-1',
        device.path,
        'Front door',
        JSON.stringify(device.firmware.identity),
        JSON.stringify([unlock, status]),
        '["unlock","status"]',
        1_700_000_000_000,
        1,
      );
    old.close();

    const { host: running, doorWhen } = await host(dir);
    const first = await doorWhen((summary) => summary.online);
    expect(first).toMatchObject({ trusted: true, alias: 'Front door', granted: ['unlock', 'status'] });
    expect(first.identityChange).toBeUndefined();
    expect(stored(dir)?.pinned).toEqual({ tools: [unlock, status] });
    expect(await callTool(running, 'door__unlock', {})).toMatchObject({ ok: false, error: { reason: 'denied' } });

    device.redeclare([unlockUnasked, status]);
    await doorWhen((summary) => summary.identityChange !== undefined);
    expect(await callTool(running, 'door__unlock', {})).toMatchObject({ ok: false, error: { reason: 'unauthorized' } });
    expect(device.firmware.stats.calls).toBe(0);
  }, 60_000);
});
