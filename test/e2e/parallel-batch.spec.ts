import { expect, test, type Page } from '@playwright/test';
import { makeHostFolder, walkingSkeletonReplies, type HostFolder } from './helpers/scripted-replies.ts';
import { startHost, type RunningHost } from './helpers/start-host.ts';
import { watchForPageProblems } from './helpers/watch-for-page-problems.ts';
import { startSimProcess, type SimProcess } from '../helpers/start-sim-process.ts';

let folder: HostFolder | undefined;
let host: RunningHost | undefined;
let sim: SimProcess | undefined;

test.afterEach(async () => {
  await host?.stop();
  host = undefined;
  await sim?.stop();
  sim = undefined;
  await folder?.remove();
  folder = undefined;
});

async function expectSkeletonConversation(page: Page): Promise<void> {
  const panels = page.getByTestId('batch-panel');
  await expect(panels).toHaveCount(1);
  const panel = panels.first();
  await expect(panel.getByTestId('batch-mode')).toHaveText('parallel');
  await expect(panel.getByTestId('timing-bar')).toHaveCount(3);
  const rows = panel.getByTestId('tool-row');
  await expect(rows).toHaveCount(3);
  // Rows in the model's declared (index) order, every call succeeded.
  await expect(rows.nth(0)).toHaveAttribute('data-tool-name', 'lamp__set');
  await expect(rows.nth(0)).toContainText('"lamp-1"');
  await expect(rows.nth(1)).toHaveAttribute('data-tool-name', 'lamp__set');
  await expect(rows.nth(1)).toContainText('"lamp-2"');
  await expect(rows.nth(2)).toHaveAttribute('data-tool-name', 'thermometer__read');
  for (const index of [0, 1, 2]) await expect(rows.nth(index)).toHaveAttribute('data-ok', 'true');
  await expect(panel.getByTestId('batch-executed')).toHaveText('3');
  // The bars are drawn on the batch's axis: the three calls ran side by side for nearly all of the
  // batch, so the longest run spans more than half of its bar (none is drawn if the placement is not).
  const widest = await panel
    .getByTestId('timing-bar')
    .evaluateAll((bars) =>
      Math.max(
        ...bars.map(
          (bar) =>
            (bar.querySelector('.timing-run')?.getBoundingClientRect().width ?? 0) / bar.getBoundingClientRect().width,
        ),
      ),
    );
  expect(widest).toBeGreaterThan(0.5);
  expect(widest).toBeLessThanOrEqual(1);
  await expect(page.locator('[data-testid="chat-message"][data-role="user"]')).toHaveText([
    'Turn on both lamps and read the temperature.',
  ]);
  await expect(page.locator('[data-testid="chat-message"][data-role="assistant"]')).toHaveText(['Done.']);
}

test('a parallel batch shows live and survives a host restart', async ({ page }) => {
  folder = await makeHostFolder(walkingSkeletonReplies);
  host = await startHost({ dataDir: folder.dataDir, scriptFile: folder.scriptFile });

  const problems = watchForPageProblems(page);
  await page.goto(host.url);
  // The token moves from the address bar into the origin's storage.
  await expect(page).toHaveURL(host.origin);
  await expect(page.getByTestId('model-label')).toHaveText(/no AI/);
  await expect(page.getByTestId('connection-status')).toHaveText('Connected');

  await page.getByTestId('composer-input').fill('Turn on both lamps and read the temperature.');
  await page.getByTestId('send-button').click();
  await expectSkeletonConversation(page);
  await expect(page.getByTestId('turn')).toHaveAttribute('data-status', 'done');

  expect(problems).toEqual([]);

  // Restart the host on the same data dir: the conversation comes back from the journal.
  const firstOrigin = host.origin;
  await host.stop();
  host = await startHost({ dataDir: folder.dataDir, scriptFile: folder.scriptFile });
  // A new port is a new origin (no remembered conversation): open it from the list, as a person would.
  await page.goto(host.url);
  await expect(page.getByTestId('conversation-item')).toHaveCount(1);
  await page.getByTestId('conversation-item').click();
  await expectSkeletonConversation(page);
  // The first page's link (socket, and the token check between attempts) failing to reach the stopped host
  // is expected; nothing else is.
  const stoppedHost = new URL(firstOrigin).host;
  expect(problems.filter((problem) => !problem.includes(stoppedHost))).toEqual([]);
});

test('Stop aborts the running batch and the turn ends as stopped', async ({ page }) => {
  folder = await makeHostFolder(walkingSkeletonReplies);
  // Devices that take a minute to answer: the batch is surely still running when Stop is pressed.
  host = await startHost({
    dataDir: folder.dataDir,
    scriptFile: folder.scriptFile,
    extraArgs: ['--sim-latency-ms', '60000'],
  });
  await page.goto(host.url);
  await page.getByTestId('composer-input').fill('Turn on both lamps and read the temperature.');
  await page.getByTestId('send-button').click();
  await expect(page.locator('[data-testid="tool-row"][data-status="running"]')).toHaveCount(3);
  await expect(page.locator('[data-testid="timing-bar"][data-live="true"]')).toHaveCount(3);
  await page.getByTestId('stop-button').click();
  await expect(page.getByTestId('turn')).toHaveAttribute('data-status', 'aborted');
  await expect(page.getByTestId('turn-ending')).toContainText('Stopped.');
  await expect(page.locator('[data-testid="timing-bar"][data-live="true"]')).toHaveCount(0);
  await expect(page.getByTestId('send-button')).toBeVisible();
});

test('the lamps of a separate simulator process are really on after the batch', async ({ page }) => {
  // The devices live in their own process behind socat pseudo-terminals, as real boards would:
  // what they print is the independent witness of what the host did over the serial line.
  sim = await startSimProcess({ kinds: ['lamp', 'lamp', 'thermometer', 'display'], latencyMs: 100 });
  folder = await makeHostFolder(walkingSkeletonReplies);
  host = await startHost({
    dataDir: folder.dataDir,
    scriptFile: folder.scriptFile,
    sim: false,
    extraArgs: sim.devices.flatMap((device) => ['--device', device.path]),
  });
  await page.goto(host.url);
  await page.getByTestId('composer-input').fill('Turn on both lamps and read the temperature.');
  await page.getByTestId('send-button').click();
  await expectSkeletonConversation(page);
  expect(await sim.waitForState('lamp-1', (state) => state.on === true)).toMatchObject({ on: true });
  expect(await sim.waitForState('lamp-2', (state) => state.on === true)).toMatchObject({ on: true });
});
