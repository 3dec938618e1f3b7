import { mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findExecutable } from '../../../host/devices/find-executable.ts';
import { runCli } from '../../helpers/run-cli.ts';
import { startSimProcess, type SimProcess } from '../../helpers/start-sim-process.ts';
import { callTool, devicesWhen, startTestHost } from './host-rig.ts';

const hasSocat = findExecutable('socat') !== undefined;
const cleanups: (() => Promise<void> | void)[] = [];
let index = '';
let byId = '';

beforeEach(() => {
  // This test's simulators, and a folder standing in for /dev/serial/by-id; the host and the CLI read both from the environment.
  index = tempDir('sim-index');
  byId = tempDir('by-id');
  process.env.HOME_AGENT_SIM_INDEX = index;
  process.env.HOME_AGENT_SERIAL_BY_ID = byId;
  cleanups.push(() => {
    delete process.env.HOME_AGENT_SIM_INDEX;
    delete process.env.HOME_AGENT_SERIAL_BY_ID;
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

async function sim(options: { dir: string; ids?: string[]; index?: string }): Promise<SimProcess> {
  const started = await startSimProcess({
    kinds: ['lamp'],
    dir: options.dir,
    ...(options.ids ? { ids: options.ids } : {}),
    env: { HOME_AGENT_SIM_INDEX: options.index ?? index, HOME_AGENT_SERIAL_BY_ID: byId },
  });
  cleanups.push(() => started.stop());
  return started;
}

async function cli(args: string[], dataDir: string): Promise<string> {
  const run = await runCli([...args, '--data-dir', dataDir]);
  if (run.code !== 0) throw new Error(`home-agent ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
  return run.stdout;
}

/** Pairs the sim's lamp-1 with every action granted, and a host on that data folder that has it online. */
async function pairedLampOnline(board: SimProcess) {
  const dataDir = tempDir('data');
  await cli(['devices', 'pair', board.devices[0]!.path, '--yes'], dataDir);
  await cli(['devices', 'grant', 'lamp-1', '--all'], dataDir);
  const started = await startTestHost({ dataDir });
  cleanups.push(() => started.host.dispose());
  await devicesWhen(started.host, (devices) => devices.some((device) => device.id === 'lamp-1' && device.online));
  return { dataDir, ...started };
}

describe.skipIf(!hasSocat)(
  `a paired device that comes back on another port${hasSocat ? '' : ' (skipped: apt-get install -y socat)'}`,
  // Several processes each: node starts slowly on two shared cores.
  { timeout: 120_000 },
  () => {
    it('is followed to the port its simulator announces it at, online there with its grants and pinned declaration, and said to have moved', async () => {
      const board = await sim({ dir: tempDir('board') });
      const from = board.devices[0]!.path;
      const { host, dataDir, log } = await pairedLampOnline(board);
      const pinned = JSON.parse(await cli(['devices', 'list', '--json'], dataDir))[0].pinned;
      expect(pinned.tools.map((tool: { name: string }) => tool.name)).toEqual(['set', 'get']);

      await board.stop();
      await devicesWhen(host, (devices) => devices.some((device) => device.id === 'lamp-1' && !device.online));
      // Started again elsewhere, as the same device (its id given back with --ids).
      const again = await sim({ dir: tempDir('board-again'), ids: ['lamp-1'] });
      const to = again.devices[0]!.path;
      expect(to).not.toBe(from);

      const [lamp] = await devicesWhen(host, (devices) =>
        devices.some((device) => device.id === 'lamp-1' && device.online && device.path === to),
      );
      expect(lamp).toMatchObject({
        path: to,
        granted: ['get', 'set'],
        trusted: true,
        movedFrom: { path: from, because: 'simulator' },
      });
      expect(await callTool(host, 'lamp__set', { device_id: 'lamp-1', on: true })).toMatchObject({ ok: true });
      expect(await again.waitForState('lamp-1', (state) => state.on === true)).toMatchObject({ on: true });

      expect(log).toContain(
        `lamp-1 moved from ${from} to ${to} (the same simulated device): it is used there with its grants`,
      );
      const listed = await cli(['devices', 'list'], dataDir);
      expect(listed).toContain(`${to}\tgranted: get, set\tmoved from ${from} to ${to} (the same simulated device)\n`);
      const stored = JSON.parse(await cli(['devices', 'list', '--json'], dataDir))[0];
      expect(stored).toMatchObject({ path: to, grants: ['get', 'set'], pinned, movedFrom: { path: from } });
    });

    it('is followed to the tty its USB serial number’s link leads to now, told by that link alone', async () => {
      const board = await sim({ dir: tempDir('board') });
      const serial = 'usb-FTDI_FT232R_USB_UART_A10K4ZQX-if00-port0';
      const link = path.join(byId, serial);
      symlinkSync(realpathSync(board.devices[0]!.path), link);
      const from = board.devices[0]!.path;
      const { host, dataDir } = await pairedLampOnline(board);
      expect(JSON.parse(await cli(['devices', 'list', '--json'], dataDir))[0].serialLink).toBe(serial);

      // Unplugged: udev removes its link.
      await board.stop();
      rmSync(link);
      await devicesWhen(host, (devices) => devices.some((device) => device.id === 'lamp-1' && !device.online));
      // Plugged in again: it comes up on another tty (a simulator the host does not see stands in for the adapter).
      const again = await sim({ dir: tempDir('board-again'), ids: ['lamp-1'], index: tempDir('other-index') });
      const to = realpathSync(again.devices[0]!.path);
      symlinkSync(to, link);

      const [lamp] = await devicesWhen(host, (devices) =>
        devices.some((device) => device.id === 'lamp-1' && device.online && device.path === to),
      );
      expect(lamp).toMatchObject({ granted: ['get', 'set'], movedFrom: { path: from, because: 'usb-serial' } });
      expect(await cli(['devices', 'list'], dataDir)).toContain(
        `moved from ${from} to ${to} (the same USB serial number)`,
      );
    });
  },
);
