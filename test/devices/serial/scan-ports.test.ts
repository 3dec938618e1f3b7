import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { formatScanLine, scanPorts } from '../../../devices/serial/scan-ports.ts';
import { startSimulatedDevices } from '../../../devices/simulator/start-simulated-devices.ts';
import { Disposables } from '../../helpers/pty-pair.ts';

const owned = new Disposables();
afterEach(() => owned.disposeAll());

async function tempFolder(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'home-agent-dev-'));
  owned.add({ close: () => rm(directory, { recursive: true, force: true }) });
  return directory;
}

async function fakeDev(names: string[]): Promise<string> {
  const directory = await tempFolder();
  for (const name of names) await writeFile(join(directory, name), '');
  return directory;
}

/**
 * A sysfs as Linux lays it out for a USB serial adapter: /sys/class/tty/ttyUSB0/device links to
 * the USB interface, whose parent folder holds idVendor, idProduct and serial (values of an FTDI
 * FT232R as `lsusb -v` shows them).
 */
async function fakeSysfs(): Promise<string> {
  const root = await tempFolder();
  const usbDevice = join(root, 'devices/pci0000:00/usb1/1-1');
  const usbInterface = join(usbDevice, '1-1:1.0/ttyUSB0');
  await mkdir(usbInterface, { recursive: true });
  await writeFile(join(usbDevice, 'idVendor'), '0403\n');
  await writeFile(join(usbDevice, 'idProduct'), '6001\n');
  await writeFile(join(usbDevice, 'serial'), 'A50285BI\n');
  await writeFile(join(usbDevice, 'manufacturer'), 'FTDI\n');
  await mkdir(join(root, 'class/tty/ttyUSB0'), { recursive: true });
  await symlink(usbInterface, join(root, 'class/tty/ttyUSB0/device'));
  await mkdir(join(root, 'class/tty/ttyS0'), { recursive: true });
  return join(root, 'class/tty');
}

const noSimulators = () => Promise.resolve([]);

describe('scanPorts', () => {
  it('falls back to the device folder when the OS list fails, reads USB ids from sysfs, and adds given paths', async () => {
    const devDirectory = await fakeDev(['ttyUSB0', 'ttyACM1', 'ttyS0', 'tty1', 'ttyUSBx', 'null']);
    const sim = owned.add(await startSimulatedDevices({ kinds: ['lamp'], latencyMs: 0 }));
    const result = await scanPorts({
      devDirectory,
      sysTtyDirectory: await fakeSysfs(),
      manualPaths: [sim.devices[0]!.path, '/nonexistent/ttyX'],
      listPorts: () => Promise.reject(new Error('spawn udevadm ENOENT')),
      listSimulated: noSimulators,
    });
    expect(result.candidates).toEqual([
      { path: join(devDirectory, 'ttyACM1'), source: 'dev' },
      { path: join(devDirectory, 'ttyS0'), source: 'dev' },
      {
        path: join(devDirectory, 'ttyUSB0'),
        source: 'dev',
        vendorId: '0403',
        productId: '6001',
        serialNumber: 'A50285BI',
        manufacturer: 'FTDI',
      },
      { path: sim.devices[0]!.path, source: 'path' },
    ]);
    expect(result.warnings).toHaveLength(2);
    expect(result.warnings[0]).toContain('udevadm');
    expect(result.warnings[1]).toContain('/nonexistent/ttyX');
  });

  it('keeps what the OS list reports (ids in lower case), without duplicating it from the folder', async () => {
    const devDirectory = await fakeDev(['ttyUSB0']);
    const listed = join(devDirectory, 'ttyUSB0');
    const result = await scanPorts({
      devDirectory,
      listPorts: () =>
        Promise.resolve([
          { path: listed, manufacturer: 'FTDI', vendorId: '0403', productId: '6001', serialNumber: 'A50285BI' },
        ]),
      listSimulated: noSimulators,
    });
    expect(result).toEqual({
      candidates: [
        {
          path: listed,
          source: 'os',
          manufacturer: 'FTDI',
          vendorId: '0403',
          productId: '6001',
          serialNumber: 'A50285BI',
        },
      ],
      warnings: [],
    });
  });

  it("lists running simulators' pseudo-terminals with the id and kind they play", async () => {
    const result = await scanPorts({
      devDirectory: await fakeDev([]),
      listPorts: () => Promise.resolve([]),
      listSimulated: () => Promise.resolve([{ path: '/tmp/sim/lamp-1', id: 'lamp-1', kind: 'lamp' }]),
    });
    expect(result.candidates).toEqual([
      { path: '/tmp/sim/lamp-1', source: 'sim', simulated: { id: 'lamp-1', kind: 'lamp' } },
    ]);
  });

  it('never throws, even when nothing can be read', async () => {
    const result = await scanPorts({
      devDirectory: '/nonexistent-dev',
      listPorts: () => Promise.reject(new Error('no')),
      listSimulated: () => Promise.reject(new Error('no index')),
    });
    expect(result.candidates).toEqual([]);
    expect(result.warnings).toHaveLength(3);
  });
});

describe('formatScanLine', () => {
  it('writes PATH, SOURCE, VENDOR:PRODUCT and SERIAL separated by tabs, empty where unknown', () => {
    expect(
      formatScanLine({
        path: '/dev/ttyUSB0',
        source: 'os',
        vendorId: '0403',
        productId: '6001',
        serialNumber: 'A50285BI',
      }),
    ).toBe('/dev/ttyUSB0\tos\t0403:6001\tA50285BI');
    expect(formatScanLine({ path: '/dev/ttyS0', source: 'dev' })).toBe('/dev/ttyS0\tdev\t\t');
  });
});
