import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import type { ScriptedReply } from './helpers/scripted-replies.ts';
import { useSimDeviceHome, type SimDeviceHome } from './helpers/sim-device-home.ts';

// Four confirmed relays in one reply: the AT board's switch declares `confirm` and is parallel-safe,
// so the four calls run as one parallel batch and all four wait for the person at once.
const switchFourOn: ScriptedReply[] = [
  {
    toolCalls: [1, 2, 3, 4].map((channel) => ({
      name: 'relay__set',
      args: { device_id: 'relay-1', channel, on: true },
    })),
  },
  { text: 'Done.' },
];

const openHome = useSimDeviceHome();

/** A relay board in a simulator process behind a socat pty, a host attached with the shipped profile, and the four switches asked for. */
async function askForFour(page: Page): Promise<SimDeviceHome> {
  const home = await openHome(page, { kinds: ['relay'], replies: switchFourOn, deviceOptions: 'profile=at-relay-4' });
  await page.getByTestId('composer-input').fill('Switch all four relays on.');
  await page.getByTestId('send-button').click();
  return home;
}

/** The one card: the four calls in index order, each with its device and its whole arguments. */
async function expectOneCardForFour(page: Page): Promise<void> {
  const card = page.getByTestId('batch-approval-card');
  await expect(card).toHaveCount(1);
  await expect(page.getByTestId('approval-card')).toHaveCount(0);
  await expect(card.getByTestId('batch-approval-title')).toHaveText('4 calls of this batch need your approval');
  const calls = card.getByTestId('approval-call');
  await expect(calls).toHaveCount(4);
  for (const index of [0, 1, 2, 3]) {
    await expect(calls.nth(index).getByTestId('approval-tool-name')).toHaveText('relay__set');
    await expect(calls.nth(index).getByTestId('approval-device')).toHaveText('relay-1');
    await expect(calls.nth(index).getByTestId('approval-arg')).toHaveText([
      'device_id"relay-1"',
      `channel${index + 1}`,
      'ontrue',
    ]);
  }
  await expect(page.getByTestId('approvals-pending')).toHaveAttribute('data-count', '4');
}

function relayRows(page: Page) {
  return page.locator('[data-testid="tool-row"][data-tool-name="relay__set"]');
}

test('one card for the batch: "Allow all 4 once" allows the four calls with one click', async ({ page }) => {
  const { sim, problems } = await askForFour(page);
  await expectOneCardForFour(page);
  // axe-core on the card (no serious or critical violation).
  const axe = await new AxeBuilder({ page }).include('[data-testid="batch-approval-card"]').analyze();
  expect(
    axe.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical'),
  ).toEqual([]);
  // Nothing took the focus for the person: a stray Enter cannot approve.
  await expect(page.getByRole('button', { name: 'Allow all 4 once' })).not.toBeFocused();

  // The measure: clicks to allow all four (the goal is 1; with a card per call it was 4).
  let clicks = 0;
  await page.getByRole('button', { name: 'Allow all 4 once' }).click();
  clicks += 1;
  console.log(`clicks to allow a batch of 4 confirmed relays: ${clicks}`);
  expect(clicks).toBe(1);

  await expect(page.getByTestId('batch-approval-card')).toHaveCount(0);
  await expect(page.getByTestId('turn')).toHaveAttribute('data-status', 'done');
  await expect(relayRows(page)).toHaveCount(4);
  for (const index of [0, 1, 2, 3]) {
    await expect(relayRows(page).nth(index)).toHaveAttribute('data-ok', 'true');
    await expect(relayRows(page).nth(index).getByTestId('approval-outcome')).toHaveText('allowed by you');
  }
  // The simulator process, the independent witness: all four channels are on.
  const state = await sim.waitForState(
    'relay-1',
    (printed) => (printed.channels as boolean[] | undefined)?.every(Boolean) === true,
  );
  expect(state).toEqual({ channels: [true, true, true, true] });
  expect(problems).toEqual([]);
});

test('an answer per call still works in the card, and "Deny all" then covers only the calls left', async ({ page }) => {
  const { sim, problems } = await askForFour(page);
  await expectOneCardForFour(page);
  const calls = page.getByTestId('batch-approval-card').getByTestId('approval-call');
  // The second call alone, allowed once from its own buttons.
  await calls.nth(1).getByTestId('approve-button').click();
  await expect(relayRows(page).nth(1)).toHaveAttribute('data-ok', 'true');
  // Three left: the card says so, and Deny all covers those three.
  await expect(page.getByTestId('batch-approval-title')).toHaveText('3 calls of this batch need your approval');
  await page.getByRole('button', { name: 'Allow all 3 once' }).focus();
  await page.getByRole('button', { name: 'Deny all' }).click();
  await expect(page.getByTestId('turn')).toHaveAttribute('data-status', 'done');
  for (const index of [0, 2, 3]) {
    await expect(relayRows(page).nth(index)).toHaveAttribute('data-ok', 'false');
    await expect(relayRows(page).nth(index).getByTestId('approval-outcome')).toHaveText('denied by you');
  }
  // The simulator process: only channel 2 ever switched.
  const state = await sim.waitForState(
    'relay-1',
    (printed) => (printed.channels as boolean[] | undefined)?.[1] === true,
  );
  expect(state).toEqual({ channels: [false, true, false, false] });
  expect(problems).toEqual([]);
});
