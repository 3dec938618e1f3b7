import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { announceSimulator, listAnnouncedPorts } from '../../../devices/simulator/simulator-index.ts';
import { Disposables } from '../../helpers/pty-pair.ts';

const owned = new Disposables();
afterEach(() => owned.disposeAll());

async function tempFolder(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'home-agent-index-'));
  owned.add({ close: () => rm(directory, { recursive: true, force: true }) });
  return directory;
}

/** A process id that surely is not running: a child that has exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid!;
}

describe('the simulator index', () => {
  it('lists the ports a live simulator announced, and none once it withdraws them', async () => {
    const directory = await tempFolder();
    const port = join(directory, 'lamp-1');
    await writeFile(port, '');
    const announcement = await announceSimulator({ directory, devices: [{ path: port, id: 'lamp-1', kind: 'lamp' }] });
    expect(await listAnnouncedPorts({ directory })).toEqual([
      { path: port, id: 'lamp-1', kind: 'lamp', pid: process.pid },
    ]);
    await announcement.close();
    expect(await listAnnouncedPorts({ directory })).toEqual([]);
  });

  it('skips announcements of dead processes, ports that are gone, and files that do not read', async () => {
    const directory = await tempFolder();
    const port = join(directory, 'lamp-1');
    await writeFile(port, '');
    const dead = deadPid();
    await writeFile(
      join(directory, `${dead}.json`),
      JSON.stringify({ pid: dead, devices: [{ path: port, id: 'x', kind: 'lamp' }] }),
    );
    await writeFile(
      join(directory, `${process.pid}.json`),
      JSON.stringify({ pid: process.pid, devices: [{ path: join(directory, 'gone'), id: 'y', kind: 'lamp' }] }),
    );
    await writeFile(join(directory, '1.json'), '{ not json');
    expect(await listAnnouncedPorts({ directory })).toEqual([]);
    expect(await listAnnouncedPorts({ directory: join(directory, 'never-made') })).toEqual([]);
  });
});
