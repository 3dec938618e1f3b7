import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import type { ScriptedReply } from './helpers/scripted-replies.ts';
import { useSimDeviceHome } from './helpers/sim-device-home.ts';

// A lock's `set` needs the approval PIN by its kind: the card asks for it and offers no Always allow.
const unlock: ScriptedReply[] = [
  { toolCalls: [{ name: 'lock__set', args: { device_id: 'lock-1', locked: false } }] },
  { text: 'Unlocked.' },
];

const openHome = useSimDeviceHome();

test('a lock call asks for the PIN set in Settings: a wrong PIN is refused and leaves the question open, the right one runs it', async ({
  page,
}) => {
  const { problems } = await openHome(page, { kinds: ['lock'], replies: unlock });

  await page.locator('[data-testid="side-tab"][data-tab="settings"]').click();
  await expect(page.getByTestId('approval-pin-state')).toContainText('No PIN is set.');
  await page.getByLabel('Approval PIN').fill('2468');
  await page.getByTestId('approval-pin-save').click();
  await expect(page.getByTestId('approval-pin-message')).toHaveText('The approval PIN was saved.');
  await expect(page.getByTestId('approval-pin-state')).toContainText('A PIN is set.');

  await page.getByTestId('composer-input').fill('Unlock the door.');
  await page.getByTestId('send-button').click();
  const card = page.getByTestId('approval-card');
  await expect(card.getByTestId('approval-tool-name')).toHaveText('lock__set');
  await expect(card.getByLabel('PIN', { exact: true })).toBeVisible();
  await expect(card.getByTestId('always-allow-button')).toHaveCount(0);

  const axe = await new AxeBuilder({ page }).include('[data-testid="approval-card"]').analyze();
  expect(
    axe.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical'),
  ).toEqual([]);

  await card.getByLabel('PIN', { exact: true }).fill('1111');
  await card.getByTestId('approve-button').click();
  await expect(card.getByTestId('approval-answer-status')).toHaveText(/Wrong PIN: 4 tries left/);
  const row = page.locator('[data-testid="tool-row"][data-tool-name="lock__set"]');
  await expect(row).toHaveAttribute('data-approval', 'waiting');

  await card.getByLabel('PIN', { exact: true }).fill('2468');
  await card.getByTestId('approve-button').click();
  await expect(row).toHaveAttribute('data-status', 'done');
  await expect(row).toHaveAttribute('data-ok', 'true');
  await expect(page.getByTestId('approval-card')).toHaveCount(0);
  // The PIN is never shown back, nor journaled.
  await expect(page.locator('body')).not.toContainText('2468');
  expect(problems).toEqual([]);
});
