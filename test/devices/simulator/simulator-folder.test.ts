import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  claimSimulatorFolder,
  SimulatorFolderInUseError,
  type SimulatorFolder,
} from '../../../devices/simulator/simulator-folder.ts';

const owned: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const release of owned.splice(0).reverse()) await release();
});

async function tempIndex(): Promise<string> {
  const index = await mkdtemp(join(tmpdir(), 'home-agent-sim-index-'));
  owned.push(() => rm(index, { recursive: true, force: true }));
  return index;
}

async function claim(options: Parameters<typeof claimSimulatorFolder>[0]): Promise<SimulatorFolder> {
  const folder = await claimSimulatorFolder(options);
  owned.push(() => folder.release());
  return folder;
}

describe('claimSimulatorFolder', () => {
  it('gives the same default folder and the names recorded there to a simulator started again the same way', async () => {
    const index = await tempIndex();
    const first = await claimSimulatorFolder({ kinds: ['lamp', 'relay'], index });
    expect(first.directory).toBe(join(index, 'sim-1'));
    expect(first.previousNames).toBeUndefined();
    await first.record({ kinds: ['lamp', 'relay'], names: ['lamp-3', 'relay-1'] });
    await first.release();
    const again = await claim({ kinds: ['lamp', 'relay'], index });
    expect(again.directory).toBe(join(index, 'sim-1'));
    expect(again.previousNames).toEqual(['lamp-3', 'relay-1']);
  });

  it('passes over a default folder a running simulator holds, and says which', async () => {
    const index = await tempIndex();
    const running = await claim({ kinds: ['lamp'], index });
    const second = await claim({ kinds: ['lamp'], index });
    expect(second.directory).toBe(join(index, 'sim-2'));
    expect(second.passedOver).toEqual([{ directory: running.directory, pid: process.pid }]);
  });

  it('prefers the free default folder whose last simulator ran the same kinds', async () => {
    const index = await tempIndex();
    const lamps = await claimSimulatorFolder({ kinds: ['lamp'], index });
    const relays = await claimSimulatorFolder({ kinds: ['relay'], index });
    await lamps.record({ kinds: ['lamp'], names: ['lamp-1'] });
    await relays.record({ kinds: ['relay'], names: ['relay-1'] });
    await lamps.release();
    await relays.release();
    const again = await claim({ kinds: ['relay'], index });
    expect(again.directory).toBe(join(index, 'sim-2'));
    expect(again.previousNames).toEqual(['relay-1']);
  });

  it('refuses a folder given with --dir that a running simulator holds', async () => {
    const directory = join(await tempIndex(), 'mine');
    await claim({ kinds: ['lamp'], directory });
    await expect(claimSimulatorFolder({ kinds: ['lamp'], directory })).rejects.toBeInstanceOf(
      SimulatorFolderInUseError,
    );
  });
});
