import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  announceSimulator,
  listAnnouncedSimulators,
  simulatorIndexDirectory,
} from '../../../devices/simulator/simulator-index.ts';
import { claimSimulatorFolder } from '../../../devices/simulator/simulator-folder.ts';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function scratch(): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'home-agent-index-'));
  folders.push(folder);
  return folder;
}

describe('simulatorIndexDirectory', () => {
  it('is home-agent-sims in the runtime folder when the session has one', () => {
    expect(simulatorIndexDirectory({ XDG_RUNTIME_DIR: '/run/user/1000' })).toBe('/run/user/1000/home-agent-sims');
  });

  it("is the user's own home-agent-sims-<uid> in the temp folder without a runtime folder", () => {
    const uid = process.getuid?.();
    expect(simulatorIndexDirectory({})).toBe(path.join(tmpdir(), `home-agent-sims-${uid}`));
  });

  it('is HOME_AGENT_SIM_INDEX when it is set, runtime folder or not', () => {
    expect(simulatorIndexDirectory({ HOME_AGENT_SIM_INDEX: '/x/index', XDG_RUNTIME_DIR: '/run/user/1' })).toBe(
      '/x/index',
    );
  });
});

describe('the simulator index folder', () => {
  it('is made readable by its owner only', async () => {
    const index = path.join(scratch(), 'index');
    const announcement = await announceSimulator({ devices: [], directory: index });
    expect(statSync(index).mode & 0o777).toBe(0o700);
    await announcement.close();
  });

  it('is made private when an older one of ours let others read it', async () => {
    const index = path.join(scratch(), 'index');
    mkdirSync(index, { mode: 0o755 });
    chmodSync(index, 0o755);
    await claimSimulatorFolder({ kinds: ['lamp'], index });
    expect(statSync(index).mode & 0o777).toBe(0o700);
  });

  it('is refused when it is a link, and what it points to is left unread', async () => {
    const root = scratch();
    const elsewhere = path.join(root, 'elsewhere');
    mkdirSync(elsewhere);
    writeFileSync(path.join(elsewhere, `${process.pid}.json`), JSON.stringify({ pid: process.pid, devices: [] }));
    const index = path.join(root, 'index');
    symlinkSync(elsewhere, index);
    await expect(announceSimulator({ devices: [], directory: index })).rejects.toThrow(/is a symbolic link/);
    expect(await listAnnouncedSimulators({ directory: index })).toEqual([]);
  });

  // Only root can give a folder to another user; elsewhere the rule is the same code path as the link's.
  it.skipIf(process.getuid?.() !== 0)(
    'is refused when another user owns it, and its announcements are not believed',
    async () => {
      const index = path.join(scratch(), 'index');
      mkdirSync(index, { mode: 0o700 });
      writeFileSync(path.join(index, `${process.pid}.json`), JSON.stringify({ pid: process.pid, devices: [] }));
      chownSync(index, 65534, 65534);
      await expect(announceSimulator({ devices: [], directory: index })).rejects.toThrow(
        /belongs to another user \(uid 65534\)/,
      );
      expect(await listAnnouncedSimulators({ directory: index })).toEqual([]);
    },
  );
});
