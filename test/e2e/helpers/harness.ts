import { test as base, expect, type Page } from '@playwright/test';
import { makeHostFolder, type HostFolder, type ScriptedReply } from './scripted-replies.ts';
import { startHost, type RunningHost, type StartHostOptions } from './start-host.ts';
import { watchForPageProblems } from './watch-for-page-problems.ts';
import { startSimProcess, type SimProcess } from '../../helpers/start-sim-process.ts';

/**
 * What a test starts — folders, hosts, simulator processes — owned by one object that stops and
 * removes all of it after the test, in reverse order, whatever the test did.
 */
export class Harness {
  private readonly cleanups: (() => Promise<void>)[] = [];

  /** A temp folder with a data dir and a script of `replies` (empty for a host on another model). */
  async folder(replies: ScriptedReply[] = []): Promise<HostFolder> {
    const folder = await makeHostFolder(replies);
    this.cleanups.push(() => folder.remove());
    return folder;
  }

  /** `home-agent serve` on a folder; stopped after the test. */
  async host(options: StartHostOptions): Promise<RunningHost> {
    const host = await startHost(options);
    this.cleanups.push(() => host.stop());
    return host;
  }

  /** `home-agent sim` in its own process; stopped after the test. */
  async sim(options: { kinds: string[]; latencyMs?: number }): Promise<SimProcess> {
    const sim = await startSimProcess(options);
    this.cleanups.push(() => sim.stop());
    return sim;
  }

  /**
   * A relay board (relay-1, speaking AT lines) in its own simulator process, and `serve` attached to
   * it with the at-relay-4 profile, on a script that switches relay 2 on and then says "Done.".
   */
  async relayHost(): Promise<RunningHost> {
    const sim = await this.sim({ kinds: ['relay'] });
    const relay = sim.devices.find((device) => device.id === 'relay-1')!;
    const folder = await this.folder([
      { toolCalls: [{ name: 'relay__set', args: { device_id: 'relay-1', channel: 2, on: true } }] },
      { text: 'Done.' },
    ]);
    return this.host({
      dataDir: folder.dataDir,
      scriptFile: folder.scriptFile,
      sim: false,
      extraArgs: ['--device', `${relay.path},profile=at-relay-4`],
    });
  }

  /** Runs something after the test, with the rest of the teardown. */
  onDispose(cleanup: () => Promise<void>): void {
    this.cleanups.push(cleanup);
  }

  async dispose(): Promise<void> {
    const errors: unknown[] = [];
    for (const cleanup of this.cleanups.splice(0).reverse()) {
      try {
        await cleanup();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length > 0) throw errors[0];
  }
}

/** Playwright's test with a `harness` that tears down what the test started. */
export const test = base.extend<{ harness: Harness }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from this pattern.
  harness: async ({}, use) => {
    const harness = new Harness();
    await use(harness);
    await harness.dispose();
  },
});

export { expect };

/** Opens the host's page and waits for its live link; returns what went wrong on the page meanwhile. */
export async function openPage(page: Page, host: RunningHost): Promise<string[]> {
  const problems = watchForPageProblems(page);
  await page.goto(host.url);
  await expect(page.getByTestId('connection-status')).toHaveText('Connected');
  return problems;
}

/**
 * Sends a message from the composer and waits for the turn it starts to end. The chat draws only the
 * turns near the view (older ones leave the page as it fills), so the new turn is found as the last
 * slot whose turn id changed, not by counting turns.
 */
export async function send(page: Page, text: string): Promise<void> {
  const slots = page.locator('[data-turn-id]');
  const before = (await slots.count()) === 0 ? '' : ((await slots.last().getAttribute('data-turn-id')) ?? '');
  await page.getByTestId('composer-input').fill(text);
  await page.getByTestId('composer-input').press('Enter');
  await expect(slots.last()).not.toHaveAttribute('data-turn-id', before);
  const turnId = await slots.last().getAttribute('data-turn-id');
  const turn = page.locator(`[data-turn-id="${turnId}"]`).getByTestId('turn');
  await expect(turn).toContainText(text);
  await expect(turn).not.toHaveAttribute('data-status', 'running');
}
