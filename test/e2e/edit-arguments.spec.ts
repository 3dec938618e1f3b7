import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import type { ScriptedReply } from './helpers/scripted-replies.ts';
import { useSimDeviceHome, type SimDeviceHome } from './helpers/sim-device-home.ts';

// The model asks for channel 2; the person will change it to channel 3 before allowing.
const switchTwoOn: ScriptedReply[] = [
  { toolCalls: [{ name: 'relay__set', args: { device_id: 'relay-1', channel: 2, on: true } }] },
  { text: 'Done.' },
];

const openHome = useSimDeviceHome();

async function askToSwitch(page: Page): Promise<SimDeviceHome> {
  const home = await openHome(page, { kinds: ['relay'], replies: switchTwoOn, deviceOptions: 'profile=at-relay-4' });
  await page.getByTestId('composer-input').fill('Switch relay 2 on.');
  await page.getByTestId('send-button').click();
  return home;
}

function relayRow(page: Page) {
  return page.locator('[data-testid="tool-row"][data-tool-name="relay__set"]');
}

test('Edit arguments: the call runs with the person’s arguments, and its row shows the change', async ({ page }) => {
  const { sim, problems } = await askToSwitch(page);
  const card = page.getByTestId('approval-card');
  await expect(card).toHaveCount(1);
  const edit = card.getByRole('button', { name: 'Edit arguments' });
  await expect(edit).toHaveAttribute('aria-expanded', 'false');
  await edit.click();
  await expect(edit).toHaveAttribute('aria-expanded', 'true');
  // The device stays as the model asked; every other argument is the person's to change.
  await expect(card.getByTestId('arguments-editor-device')).toContainText('device_id stays "relay-1"');
  const field = card.getByRole('textbox', { name: /Arguments of relay__set/ });
  await expect(field).toBeFocused();
  expect(JSON.parse(await field.inputValue())).toEqual({ channel: 2, on: true });
  // No "Always allow" for an edited call.
  await expect(card.getByTestId('always-allow-button')).toHaveCount(0);
  const axe = await new AxeBuilder({ page }).include('[data-testid="approval-card"]').analyze();
  expect(
    axe.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical'),
  ).toEqual([]);

  // Not JSON: said in the window, nothing sent.
  await field.fill('{"channel": 3,');
  await card.getByRole('button', { name: 'Allow once with these arguments' }).click();
  await expect(card.getByTestId('arguments-editor-problem')).toContainText('not JSON');
  // Outside the tool's schema: the host refuses it, the question stays open.
  await field.fill('{"channel": 9, "on": true}');
  await card.getByRole('button', { name: 'Allow once with these arguments' }).click();
  await expect(card.getByTestId('approval-answer-status')).toHaveAttribute('data-phase', 'failed');
  await expect(card.getByTestId('approval-answer-status')).toContainText('channel');
  await expect(relayRow(page)).toHaveAttribute('data-approval', 'waiting');

  await field.fill('{"channel": 3, "on": true}');
  await card.getByRole('button', { name: 'Allow once with these arguments' }).click();
  await expect(relayRow(page)).toHaveAttribute('data-status', 'done');
  await expect(relayRow(page)).toHaveAttribute('data-ok', 'true');
  await expect(relayRow(page).getByTestId('args-edited')).toHaveText('arguments changed by you');
  await expect(relayRow(page).locator('.tool-args')).toContainText('3');
  await relayRow(page).getByTestId('tool-row-toggle').click();
  expect(JSON.parse((await relayRow(page).getByTestId('tool-details-args').textContent()) ?? '')).toEqual({
    device_id: 'relay-1',
    channel: 3,
    on: true,
  });
  expect(JSON.parse((await relayRow(page).getByTestId('tool-details-model-args').textContent()) ?? '')).toEqual({
    device_id: 'relay-1',
    channel: 2,
    on: true,
  });
  // The result the model read says what the person changed.
  await expect(relayRow(page).getByTestId('tool-details-result')).toContainText('personChangedArguments');
  await expect(page.getByTestId('turn')).toHaveAttribute('data-status', 'done');
  // The simulator process, the independent witness: channel 3 switched, never channel 2.
  const state = await sim.waitForState(
    'relay-1',
    (printed) => (printed.channels as boolean[] | undefined)?.[2] === true,
  );
  expect(state).toEqual({ channels: [false, false, true, false] });

  // Reloaded: the journal keeps both, and the row still shows the change.
  await page.reload();
  await expect(page.getByTestId('connection-status')).toHaveText('Connected');
  await expect(relayRow(page).getByTestId('args-edited')).toHaveText('arguments changed by you');
  expect(problems).toEqual([]);
});

test('Cancel leaves the model’s arguments, and Allow once runs them', async ({ page }) => {
  const { sim, problems } = await askToSwitch(page);
  const card = page.getByTestId('approval-card');
  await card.getByRole('button', { name: 'Edit arguments' }).click();
  await card.getByRole('textbox', { name: /Arguments of relay__set/ }).fill('{"channel": 4, "on": true}');
  await card.getByRole('button', { name: 'Cancel' }).click();
  await expect(card.getByTestId('arguments-editor')).toHaveCount(0);
  await card.getByTestId('approve-button').click();
  await expect(relayRow(page)).toHaveAttribute('data-ok', 'true');
  await expect(relayRow(page).getByTestId('args-edited')).toHaveCount(0);
  const state = await sim.waitForState(
    'relay-1',
    (printed) => (printed.channels as boolean[] | undefined)?.[1] === true,
  );
  expect(state).toEqual({ channels: [false, true, false, false] });
  expect(problems).toEqual([]);
});
