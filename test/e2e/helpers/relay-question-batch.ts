import type { Locator, Page } from '@playwright/test';
import { expect, openPage, type Harness } from './harness.ts';

/**
 * A host whose model sends one batch: relay-1's switch, which asks the person first (so the batch
 * stays live while it waits), then `others` calls listing the channels, then `reply`. The page is
 * opened, the request sent, and the question's card shown; the page's problems are watched.
 */
export async function sendRelayQuestionBatch(
  page: Page,
  harness: Harness,
  options: { others: number; reply: string },
): Promise<{ card: Locator; problems: string[] }> {
  const sim = await harness.sim({ kinds: ['relay'] });
  const relay = sim.devices.find((device) => device.id === 'relay-1')!;
  const folder = await harness.folder([
    {
      toolCalls: [
        { name: 'relay__set', args: { device_id: 'relay-1', channel: 2, on: true } },
        ...Array.from({ length: options.others }, () => ({ name: 'output_list_channels', args: {} })),
      ],
    },
    { text: options.reply },
  ]);
  const host = await harness.host({
    dataDir: folder.dataDir,
    scriptFile: folder.scriptFile,
    sim: false,
    extraArgs: ['--device', `${relay.path},profile=at-relay-4`],
  });
  const problems = await openPage(page, host);
  await page.getByTestId('composer-input').fill('switch relay 2 on and list the channels');
  await page.getByTestId('composer-input').press('Enter');
  const card = page.getByTestId('approval-card');
  await expect(card).toBeVisible();
  return { card, problems };
}
