import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, openPage, send, test } from './helpers/harness.ts';
import type { Page } from '@playwright/test';

const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));

/** Requests a person makes of the demo model on `--sim`, and its whole last reply — written by hand. */
const REPLIES: { request: string; reply: string }[] = [
  // The lamps start off: switching everything off leaves them off, and it says so, reading them back.
  { request: 'turn everything off', reply: 'Done.\n- lamp-1 is off\n- lamp-2 is off' },
  { request: 'set lamp-2 to 30% brightness', reply: 'Done.\n- lamp-2 is off (brightness 30 %)' },
  { request: 'turn on lamp 1', reply: 'Done.\n- lamp-1 is on at 100 %' },
  {
    request: 'turn off the kitchen lamp',
    reply:
      'I know no lamp called "kitchen". The lamps I may use are lamp-1 and lamp-2: name one of them, e.g. "turn off lamp-1".',
  },
  { request: 'turn on lamp 3', reply: 'There is no lamp-3. The lamps I may use are lamp-1 and lamp-2.' },
  {
    request: 'turn on the heater',
    reply: 'There is no heater among the devices I may use (display-1, lamp-1, lamp-2, thermometer-1).',
  },
  { request: 'set lamp 1 to 150% brightness', reply: 'Brightness goes from 0 to 100 %, so I did not send 150 %.' },
];

/** The last thing the assistant said in the newest turn. */
function lastReply(page: Page) {
  return page.getByTestId('turn').last().locator('[data-testid="chat-message"][data-role="assistant"]').last();
}

test('the demo model answers honestly: what it did, and what it refused and why', async ({ page, harness }) => {
  const folder = await harness.folder();
  const host = await harness.host({ dataDir: folder.dataDir, provider: 'demo', extraArgs: ['--sim-latency-ms', '20'] });
  const problems = await openPage(page, host);
  for (const { request, reply } of REPLIES) {
    await send(page, request);
    await expect(lastReply(page), request).toHaveText(reply);
    await expect(page.getByTestId('turn').last()).toHaveAttribute('data-status', 'done');
  }
  // A refusal ran nothing: the kitchen lamp turn has no batch at all.
  const kitchen = page.getByTestId('turn').filter({ hasText: 'turn off the kitchen lamp' });
  await expect(kitchen.getByTestId('batch-panel')).toHaveCount(0);
  expect(problems).toEqual([]);
});

/** Runs `home-agent devices …` on a data dir and resolves with its exit status. */
function devicesCommand(args: string[]): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/home-agent.mjs', 'devices', ...args], {
      cwd: repositoryRoot,
      stdio: 'ignore',
    });
    child.once('error', reject);
    child.once('close', resolve);
  });
}

test('with a lamp’s set action not granted, the demo model says so and names the grant, and switches nothing', async ({
  page,
  harness,
}) => {
  const sim = await harness.sim({ kinds: ['lamp'], latencyMs: 20 });
  const lamp = sim.devices[0]!;
  const folder = await harness.folder();
  // Paired as a person would, then only reading granted.
  expect(await devicesCommand(['pair', lamp.path, '--yes', '--data-dir', folder.dataDir])).toBe(0);
  expect(await devicesCommand(['grant', 'lamp-1', 'get', '--data-dir', folder.dataDir])).toBe(0);
  const host = await harness.host({ dataDir: folder.dataDir, provider: 'demo', sim: false });
  const problems = await openPage(page, host);
  await send(page, 'turn on lamp 1');
  await expect(lastReply(page)).toHaveText(
    'I may not switch lamp-1: its set action is not granted to me. Grant it in the Devices tab, or run: home-agent devices grant lamp-1 set',
  );
  await expect(page.getByTestId('batch-panel')).toHaveCount(0);
  await send(page, 'is lamp 1 on?');
  await expect(lastReply(page)).toHaveText('lamp-1 is off');
  // The lamp's own report, after the one call that reached it (the read).
  expect(await sim.waitForState('lamp-1', () => true)).toEqual({ on: false, brightness: 100 });
  expect(problems).toEqual([]);
});
