import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readlinkSync, rmSync, symlinkSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findExecutable } from '../../../../host/devices/find-executable.ts';
import { listAnnouncedHosts, type HostAnnouncement } from '../../../../host/devices/host-announcement.ts';
import { runCli } from '../../../helpers/run-cli.ts';
import { startSimProcess, type SimProcess } from '../../../helpers/start-sim-process.ts';
import { startHost } from '../../../e2e/helpers/start-host.ts';

const hasSocat = findExecutable('socat') !== undefined;
const cleanups: (() => Promise<void> | void)[] = [];
let index = '';

beforeEach(() => {
  // Hosts and simulators of this test announce here only; serve inherits it from this process.
  index = mkdtempSync(path.join(tmpdir(), 'home-agent-sim-index-'));
  process.env.HOME_AGENT_SIM_INDEX = index;
  cleanups.push(() => {
    delete process.env.HOME_AGENT_SIM_INDEX;
    rmSync(index, { recursive: true, force: true });
  });
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(name: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `home-agent-${name}-`));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function sim(options: { kinds: string[]; dir?: string }): Promise<SimProcess> {
  const started = await startSimProcess({ ...options, env: { HOME_AGENT_SIM_INDEX: index } });
  cleanups.push(() => started.stop());
  return started;
}

async function serve(options: { sim: boolean; dataDir: string }) {
  const host = await startHost({ dataDir: options.dataDir, provider: 'demo', sim: options.sim });
  cleanups.push(() => host.stop());
  return host;
}

/** Resolves with the hosts announced in the index once `test` holds: looked at on every change of the folder. */
function hostsWhen(test: (hosts: HostAnnouncement[]) => boolean): Promise<HostAnnouncement[]> {
  return new Promise((resolve) => {
    const watcher = watch(index, () => void look());
    let done = false;
    async function look(): Promise<void> {
      const hosts = await listAnnouncedHosts({ directory: index });
      if (done || !test(hosts)) return;
      done = true;
      watcher.close();
      resolve(hosts);
    }
    void look();
  });
}

const ids = (started: SimProcess) => started.devices.map((device) => device.id);

describe.skipIf(!hasSocat)(
  `home-agent sim beside running hosts${hasSocat ? '' : ' (skipped: apt-get install -y socat)'}`,
  // Several processes each: node starts slowly on two shared cores.
  { timeout: 90_000 },
  () => {
    it('gives lamp-1, lamp-2, thermometer-1, display-1 when nothing else runs', async () => {
      const started = await sim({ kinds: ['lamp', 'lamp', 'thermometer', 'display'] });
      expect(ids(started)).toEqual(['lamp-1', 'lamp-2', 'thermometer-1', 'display-1']);
      expect(started.devices.map((device) => path.basename(device.path))).toEqual(ids(started));
    });

    it("passes over the ids npm start's home has, says so on stderr, and prints only device lines on stdout", async () => {
      const home = await serve({ sim: true, dataDir: tempDir('data') });
      expect(home.url).toMatch(/#token=/);
      const [announced] = await hostsWhen((hosts) => hosts.length === 1);
      expect(announced?.command).toBe('home-agent serve');
      expect(announced?.devices.map((device) => device.id)).toEqual(['display-1', 'lamp-1', 'lamp-2', 'thermometer-1']);

      const started = await sim({ kinds: ['lamp', 'lamp', 'thermometer', 'display'] });
      expect(ids(started)).toEqual(['lamp-3', 'lamp-4', 'thermometer-2', 'display-2']);
      const said = await started.stderrWhen(/ports in /);
      expect(said).toContain(
        `lamp-1, lamp-2, thermometer-1, display-1 are in use by home-agent serve (pid ${announced?.pid}): these devices are lamp-3, lamp-4, thermometer-2, display-2`,
      );
      for (const line of started.stdout().trimEnd().split('\n'))
        expect(line).toMatch(/^[a-z]+-\d+ [a-z_]+ \/\S+$|^[a-z]+-\d+ state \{.*\}$/);
    });

    it('passes over the ids of another running sim and takes a default folder of its own, saying so', async () => {
      const first = await sim({ kinds: ['lamp'] });
      const second = await sim({ kinds: ['lamp'] });
      expect(ids(first)).toEqual(['lamp-1']);
      expect(ids(second)).toEqual(['lamp-2']);
      expect(path.dirname(first.devices[0]!.path)).toBe(path.join(index, 'sim-1'));
      expect(path.dirname(second.devices[0]!.path)).toBe(path.join(index, 'sim-2'));
      const said = await second.stderrWhen(/ports in /);
      expect(said).toContain(
        `${path.join(index, 'sim-1')} is in use by another home-agent sim (pid ${first.pid}): using ${path.join(index, 'sim-2')}`,
      );
      expect(said).toContain(`lamp-1 is in use by another home-agent sim (pid ${first.pid}): these devices are lamp-2`);
    });

    it('keeps its ids and paths when started again the same way, its devices paired by a running host being its own', async () => {
      const dataDir = tempDir('data');
      await serve({ sim: true, dataDir });
      const started = await sim({ kinds: ['lamp', 'relay'] });
      expect(ids(started)).toEqual(['lamp-3', 'relay-1']);
      const paired = await runCli(['devices', 'pair', started.devices[0]!.path, '--yes', '--data-dir', dataDir]);
      expect(paired.code, paired.stderr).toBe(0);
      // serve follows the store: it announces the paired lamp-3 beside its own four.
      await hostsWhen((hosts) => hosts[0]?.devices.some((device) => device.id === 'lamp-3') === true);
      const before = started.devices.map((device) => [device.id, device.path]);
      await started.stop();

      const again = await sim({ kinds: ['lamp', 'relay'] });
      expect(again.devices.map((device) => [device.id, device.path])).toEqual(before);
      expect(await again.stderrWhen(/ports in /)).toContain('these devices are lamp-3, relay-1');
    });

    it('passes over the id of a paired device a host announces while that device is offline', async () => {
      const dataDir = tempDir('data');
      await serve({ sim: false, dataDir });
      const board = await sim({ kinds: ['lamp'], dir: tempDir('board') });
      const paired = await runCli(['devices', 'pair', board.devices[0]!.path, '--yes', '--data-dir', dataDir]);
      expect(paired.code, paired.stderr).toBe(0);
      await hostsWhen((hosts) => hosts[0]?.devices.some((device) => device.id === 'lamp-1') === true);
      await board.stop();
      const other = await sim({ kinds: ['lamp'] });
      expect(ids(other)).toEqual(['lamp-2']);
    });

    it("ignores what processes that are gone announced, and replaces a killed sim's stale link and lock", async () => {
      const dead = spawnSync(process.execPath, ['-e', '']).pid!;
      writeFileSync(
        path.join(index, `host-${dead}.json`),
        JSON.stringify({ pid: dead, command: 'home-agent serve', devices: [{ id: 'lamp-1', path: '/dev/ttyUSB0' }] }),
      );
      writeFileSync(
        path.join(index, `${dead}.json`),
        JSON.stringify({ pid: dead, devices: [{ id: 'lamp-2', kind: 'lamp', path: '/dev/ttyUSB1' }] }),
      );
      // What a sim killed with its socat leaves: its lock, its record, links to pseudo-terminals that are gone.
      const folder = path.join(index, 'sim-1');
      mkdirSync(folder);
      writeFileSync(path.join(folder, 'home-agent-sim.pid'), String(dead));
      writeFileSync(path.join(folder, 'home-agent-sim.json'), JSON.stringify({ kinds: ['lamp'], names: ['lamp-1'] }));
      symlinkSync('/dev/pts/999999', path.join(folder, 'lamp-1'));
      symlinkSync('/dev/pts/999998', path.join(folder, 'lamp-1.device'));

      const started = await sim({ kinds: ['lamp'] });
      expect(started.devices).toEqual([{ id: 'lamp-1', kind: 'lamp', path: path.join(folder, 'lamp-1') }]);
      expect(readlinkSync(path.join(folder, 'lamp-1'))).not.toBe('/dev/pts/999999');
      // Announcing swept the dead processes' files away.
      expect(existsSync(path.join(index, `host-${dead}.json`))).toBe(false);
      expect(existsSync(path.join(index, `${dead}.json`))).toBe(false);
    });

    it('refuses a --dir a running sim holds, naming it and what to do', async () => {
      const dir = tempDir('board');
      const first = await sim({ kinds: ['lamp'], dir });
      const second = await runCli(['sim', '--devices', 'lamp', '--dir', dir], {
        env: { HOME_AGENT_SIM_INDEX: index },
      });
      expect(second.code).toBe(1);
      expect(second.stderr).toContain(`${dir} is in use by another home-agent sim (pid ${first.pid}): stop that one`);
      expect(second.stdout).toBe('');
    });
  },
);

describe('home-agent sim --help', () => {
  it('shows --dir and --ids with what they do', async () => {
    const help = await runCli(['sim', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^ {2}--dir DIR\s+Put the ports in DIR/m);
    expect(help.stdout).toMatch(/^ {2}--ids ID,…\s+Give the devices these ids/m);
  });
});
