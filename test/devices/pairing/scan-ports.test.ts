import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scanPorts } from '../../../devices/pairing/scan-ports.ts';
import { startSimulatedDevices } from '../../../devices/simulator/start-simulated-devices.ts';
import { Disposables } from '../../helpers/pty-pair.ts';

const owned = new Disposables();
afterEach(() => owned.disposeAll());

async function fakeDev(names: string[]): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'home-agent-dev-'));
  owned.add({ close: () => rm(directory, { recursive: true, force: true }) });
  for (const name of names) await writeFile(join(directory, name), '');
  return directory;
}

describe('scanPorts', () => {
  it('falls back to the device folder when listing fails, and adds manual pseudo-terminals', async () => {
    const devDirectory = await fakeDev(['ttyUSB0', 'ttyACM1', 'ttyS0', 'tty1', 'ttyUSBx', 'null']);
    const sim = owned.add(await startSimulatedDevices({ kinds: ['lamp'], latencyMs: 0 }));
    const result = await scanPorts({
      devDirectory,
      manualPaths: [sim.devices[0]!.path, '/nonexistent/ttyX'],
      listPorts: () => Promise.reject(new Error('spawn udevadm ENOENT')),
    });
    expect(result.candidates).toEqual([
      { path: join(devDirectory, 'ttyACM1'), source: 'dev' },
      { path: join(devDirectory, 'ttyS0'), source: 'dev' },
      { path: join(devDirectory, 'ttyUSB0'), source: 'dev' },
      { path: sim.devices[0]!.path, source: 'manual' },
    ]);
    expect(result.warnings).toHaveLength(2);
    expect(result.warnings[0]).toContain('udevadm');
    expect(result.warnings[1]).toContain('/nonexistent/ttyX');
  });

  it('keeps what the list reports, without duplicating it from the folder', async () => {
    const devDirectory = await fakeDev(['ttyUSB0']);
    const listed = join(devDirectory, 'ttyUSB0');
    const result = await scanPorts({
      devDirectory,
      listPorts: () => Promise.resolve([{ path: listed, manufacturer: 'FTDI' }]),
    });
    expect(result).toEqual({ candidates: [{ path: listed, source: 'list', manufacturer: 'FTDI' }], warnings: [] });
  });

  it('never throws, even when nothing can be read', async () => {
    const result = await scanPorts({
      devDirectory: '/nonexistent-dev',
      listPorts: () => Promise.reject(new Error('no')),
    });
    expect(result.candidates).toEqual([]);
    expect(result.warnings).toHaveLength(2);
  });
});
