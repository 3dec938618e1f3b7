import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { databaseFileOf } from '../../../../host/config/data-dir.ts';
import { openDatabase } from '../../../../host/store/open-database.ts';
import { PairedDeviceStore, type PairedDevice } from '../../../../host/store/paired-device-store.ts';
import { builtinWaysIn } from '../../../../devices/ways-in/builtin-ways-in.ts';
import { runCli } from '../../../helpers/run-cli.ts';
import { startSimProcess } from '../../../helpers/start-sim-process.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'home-agent-rooms-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function lamp(id: string, n: number, room?: string): PairedDevice {
  return {
    path: `/dev/ttyUSB${n}`,
    alias: `Lamp ${n}`,
    ...(room !== undefined ? { room } : {}),
    identity: { id, kind: 'lamp', model: 'SimLamp 1', firmware: '1.0.0' },
    tools: [],
    grants: [],
    pairedAt: 1_700_000_000_000 + n,
    confirmedIdentity: true,
    wayIn: 'serial',
  };
}

function seed(dir: string, devices: PairedDevice[]): void {
  const db = openDatabase({ file: databaseFileOf(dir) });
  const store = new PairedDeviceStore({ db, waysIn: builtinWaysIn() });
  for (const device of devices) store.save(device);
  db.close();
}

const listJson = async (dir: string) =>
  JSON.parse((await runCli(['devices', 'list', '--json', '--data-dir', dir])).stdout) as Record<string, unknown>[];

describe('home-agent devices room', () => {
  it('puts a device in a room, in the spelling the home uses, and --none clears it; list --json says "room" right after "alias"', async () => {
    const dir = tempDir();
    seed(dir, [lamp('lamp-1', 1, 'Kitchen'), lamp('lamp-2', 2)]);
    const moved = await runCli(['devices', 'room', 'lamp-2', 'kitchen', '--data-dir', dir]);
    expect(moved).toMatchObject({ code: 0, stdout: 'lamp-2 is in the room "Kitchen".\n' });
    let listed = await listJson(dir);
    expect(listed.map((device) => Object.keys(device).slice(0, 3))).toEqual([
      ['path', 'alias', 'room'],
      ['path', 'alias', 'room'],
    ]);
    expect(listed.map((device) => device.room)).toEqual(['Kitchen', 'Kitchen']);
    const cleared = await runCli(['devices', 'room', 'lamp-1', '--none', '--data-dir', dir]);
    expect(cleared).toMatchObject({ code: 0, stdout: 'lamp-1 is in no room.\n' });
    listed = await listJson(dir);
    expect(listed.map((device) => device.room)).toEqual(['', 'Kitchen']);
  }, 60_000);

  it('exits 1 naming an unknown id, and 2 with usage for a bad or missing room', async () => {
    const dir = tempDir();
    seed(dir, [lamp('lamp-1', 1)]);
    const unknown = await runCli(['devices', 'room', 'lamp-9', 'Hall', '--data-dir', dir]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('lamp-9 is not paired (see: home-agent devices list)');
    expect(unknown.stderr).not.toContain('usage');
    const missing = await runCli(['devices', 'room', 'lamp-1', '--data-dir', dir]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--none');
    const both = await runCli(['devices', 'room', 'lamp-1', 'Hall', '--none', '--data-dir', dir]);
    expect(both.code).toBe(2);
    const long = await runCli(['devices', 'room', 'lamp-1', 'x'.repeat(101), '--data-dir', dir]);
    expect(long.code).toBe(2);
    expect(long.stderr).toContain('longer than 100 characters');
    expect((await listJson(dir))[0]?.room).toBe('');
  }, 60_000);

  it('groups the human list by room, rooms in name order and devices without a room last', async () => {
    const dir = tempDir();
    seed(dir, [
      lamp('lamp-1', 1, 'Kitchen'),
      lamp('lamp-2', 2),
      lamp('lamp-3', 3, 'Hall'),
      lamp('lamp-4', 4, 'kitchen'),
    ]);
    const listed = await runCli(['devices', 'list', '--data-dir', dir]);
    const lines = listed.stdout.trimEnd().split('\n');
    expect(lines.map((line) => line.split('\t')[0])).toEqual([
      'Hall (1):',
      'lamp-3',
      'Kitchen (2):',
      'lamp-1',
      'lamp-4',
      'No room (1):',
      'lamp-2',
    ]);
  }, 60_000);

  it('pairs a device into a room with --room', async () => {
    const dir = tempDir();
    const sim = await startSimProcess({ kinds: ['lamp'] });
    cleanups.push(() => sim.stop());
    const paired = await runCli([
      'devices',
      'pair',
      sim.devices[0]!.path,
      '--room',
      'Bedroom',
      '--yes',
      '--data-dir',
      dir,
    ]);
    expect(paired.code).toBe(0);
    expect(paired.stdout).toContain('in the room "Bedroom"');
    expect((await listJson(dir))[0]).toMatchObject({ alias: 'lamp-1', room: 'Bedroom' });
  }, 60_000);
});
