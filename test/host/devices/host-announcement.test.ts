import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { announceHost, hostCommandName, listAnnouncedHosts } from '../../../host/devices/host-announcement.ts';

const owned: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of owned.splice(0).reverse()) await cleanup();
});

async function tempIndex(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'home-agent-index-'));
  owned.push(() => rm(directory, { recursive: true, force: true }));
  return directory;
}

describe('a host’s announcement in the simulator index', () => {
  it('holds ids, ports and how the host was started — never its flags (a token may be among them)', async () => {
    const directory = await tempIndex();
    const announcement = await announceHost({
      directory,
      command: hostCommandName('home-agent serve', { npm_lifecycle_event: 'start' }),
      devices: [{ id: 'lamp-1', path: '/dev/ttyUSB0' }],
    });
    const written = await readFile(join(directory, `host-${process.pid}.json`), 'utf8');
    expect(JSON.parse(written)).toEqual({
      pid: process.pid,
      command: 'npm start (home-agent serve)',
      devices: [{ id: 'lamp-1', path: '/dev/ttyUSB0' }],
    });
    expect(hostCommandName('home-agent ask', {})).toBe('home-agent ask');
    await announcement.update([{ id: 'lamp-3', path: '/tmp/sims/sim-1/lamp-3' }]);
    expect(JSON.parse(await readFile(join(directory, `host-${process.pid}.json`), 'utf8')).devices).toEqual([
      { id: 'lamp-3', path: '/tmp/sims/sim-1/lamp-3' },
    ]);
    await announcement.close();
    await expect(readFile(join(directory, `host-${process.pid}.json`))).rejects.toThrow();
  });

  it('is read only when it parses: control characters (a terminal escape) or a malformed id leave it out', async () => {
    const directory = await tempIndex();
    // The parent of this process is alive and another process: its announcements would be listed.
    const pid = process.ppid;
    const write = (content: unknown) => writeFile(join(directory, `host-${pid}.json`), JSON.stringify(content));
    await write({ pid, command: 'home-agent serve\u001b]0;owned\u0007', devices: [] });
    expect(await listAnnouncedHosts({ directory })).toEqual([]);
    await write({ pid, command: 'home-agent serve', devices: [{ id: 'lamp 1; rm -rf', path: '/dev/ttyUSB0' }] });
    expect(await listAnnouncedHosts({ directory })).toEqual([]);
    await write({ pid, command: 'home-agent serve', devices: [{ id: 'lamp-1', path: '/dev/ttyUSB0' }] });
    expect(await listAnnouncedHosts({ directory })).toEqual([
      { pid, command: 'home-agent serve', devices: [{ id: 'lamp-1', path: '/dev/ttyUSB0' }] },
    ]);
  });
});
