import { afterEach, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { databaseFileOf } from '../../../../host/config/data-dir.ts';
import { openDatabase } from '../../../../host/store/open-database.ts';
import { PairedDeviceStore } from '../../../../host/store/paired-device-store.ts';
import { StandingApprovalStore } from '../../../../host/store/standing-approval-store.ts';
import { homeAgentCommand } from '../../../helpers/compiled-entries.ts';
import { REPO_ROOT, runCli } from '../../../helpers/run-cli.ts';
import { startSimProcess, type SimProcess } from '../../../helpers/start-sim-process.ts';
import { tempDataDir } from '../../devices/host-rig.ts';

const hasScript = spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function cli(args: string[], dataDir: string, options: { cwd?: string } = {}) {
  return runCli([...args, '--data-dir', dataDir], options);
}

/** A lamp paired as "Desk lamp", granted `set`, with "Always allow" for lamp__set on it. */
async function pairedLamp(): Promise<{ dir: string; sim: SimProcess; lamp: string }> {
  const data = tempDataDir('home-agent-pair-again-');
  cleanups.push(() => data.remove());
  const sim = await startSimProcess({ kinds: ['lamp'] });
  cleanups.push(() => sim.stop());
  const lamp = sim.devices[0]!.path;
  expect((await cli(['devices', 'pair', lamp, '--yes', '--alias', 'Desk lamp'], data.dir)).code).toBe(0);
  const db = openDatabase({ file: databaseFileOf(data.dir) });
  const devices = new PairedDeviceStore({ db });
  devices.save({ ...devices.get('lamp-1')!, grants: ['set'] });
  new StandingApprovalStore({ db }).add({ tool: 'lamp__set', deviceId: 'lamp-1' });
  db.close();
  return { dir: data.dir, sim, lamp };
}

/** The pairing of lamp-1 as the store holds it: alias, grants, and its standing approvals. */
function storedLamp(dir: string): { alias: string; grants: string[]; alwaysAllowed: string[] } {
  const db = openDatabase({ file: databaseFileOf(dir) });
  const lamp = new PairedDeviceStore({ db }).get('lamp-1')!;
  const alwaysAllowed = new StandingApprovalStore({ db })
    .list()
    .filter((approval) => approval.deviceId === 'lamp-1')
    .map((approval) => approval.tool);
  db.close();
  return { alias: lamp.alias, grants: lamp.grants, alwaysAllowed };
}

/**
 * `home-agent devices pair PATH --data-dir DIR` on a pseudo-terminal (util-linux `script`),
 * answering its question with `answer` once it is on the screen; resolves with what the terminal showed.
 */
function pairOnTerminal(devicePath: string, dataDir: string, answer: string): Promise<string> {
  const command = [process.execPath, ...homeAgentCommand(), 'devices', 'pair', devicePath]
    .concat(['--data-dir', dataDir])
    .map((part) => `'${part.replaceAll("'", "'\\''")}'`)
    .join(' ');
  const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let screen = '';
  let answered = false;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`pair on a terminal did not finish; it showed:\n${screen}`));
    }, 30_000);
    child.stdout.on('data', (chunk: Buffer) => {
      screen += chunk.toString();
      if (!answered && screen.includes('[y/N]')) {
        answered = true;
        child.stdin.write(`${answer}\n`);
      }
    });
    child.on('close', () => {
      clearTimeout(timer);
      resolve(screen);
    });
  });
}

describe('home-agent devices pair over a device paired already', () => {
  it('refuses without a terminal and without --yes, saying what would be lost and the flag, and changes nothing', async () => {
    const { dir, lamp } = await pairedLamp();
    const again = await cli(['devices', 'pair', lamp], dir);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(
      'lamp-1 is paired already ("Desk lamp" at ' +
        `${lamp}; granted: set; always allowed: lamp__set); pairing it again loses its name, grants and standing approvals. Answer on a terminal, or pass --yes to replace it`,
    );
    expect(storedLamp(dir)).toEqual({ alias: 'Desk lamp', grants: ['set'], alwaysAllowed: ['lamp__set'] });
  }, 60_000);

  it('replaces the pairing with --yes, saying what is lost: name, grants and standing approvals', async () => {
    const { dir, lamp } = await pairedLamp();
    const again = await cli(['devices', 'pair', lamp, '--yes'], dir);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(
      `lamp-1 is paired already ("Desk lamp" at ${lamp}; granted: set; always allowed: lamp__set): pairing it again replaces that pairing, and its name, grants and standing approvals are lost`,
    );
    expect(storedLamp(dir)).toEqual({ alias: 'lamp-1', grants: [], alwaysAllowed: [] });
  }, 60_000);

  it.skipIf(!hasScript)(
    'asks y/N on a terminal, saying what would be lost; no keeps the pairing as it was',
    async () => {
      const { dir, lamp } = await pairedLamp();
      const screen = await pairOnTerminal(lamp, dir, 'n');
      expect(screen).toContain('its name, grants and standing approvals are lost');
      expect(screen).toContain('Replace the pairing of lamp-1? [y/N]');
      expect(screen).toContain('Not paired.');
      expect(storedLamp(dir)).toEqual({ alias: 'Desk lamp', grants: ['set'], alwaysAllowed: ['lamp__set'] });
    },
    60_000,
  );
});

describe('home-agent devices pair PATH', () => {
  it('stores a path typed relative to the working folder as an absolute path', async () => {
    const data = tempDataDir('home-agent-relative-');
    cleanups.push(() => data.remove());
    const sim = await startSimProcess({ kinds: ['lamp'] });
    cleanups.push(() => sim.stop());
    const lamp = sim.devices[0]!.path;
    const paired = await cli(['devices', 'pair', `./${path.basename(lamp)}`, '--yes'], data.dir, {
      cwd: path.dirname(lamp),
    });
    expect(paired.code).toBe(0);
    const listed = JSON.parse((await cli(['devices', 'list', '--json'], data.dir)).stdout) as { path: string }[];
    expect(listed.map((device) => device.path)).toEqual([lamp]);
  }, 60_000);
});
