import { expect, test, type Page } from '@playwright/test';
import type { ScriptedReply } from './helpers/scripted-replies.ts';
import { callHost } from './helpers/call-host.ts';
import { useSimDeviceHome, type SimDeviceHome } from './helpers/sim-device-home.ts';

// The AT relay board's switch declares `confirm`: the host asks the person before every call.
const switchRelayTwoOn: ScriptedReply[] = [
  { toolCalls: [{ name: 'relay__set', args: { device_id: 'relay-1', channel: 2, on: true } }] },
  { text: 'Done.' },
];

const openHome = useSimDeviceHome();

/**
 * A relay board in a separate simulator process (behind a socat pseudo-terminal, speaking AT
 * lines), a host attached to it with the shipped profile, the page open, and the switch asked for.
 */
async function askToSwitch(page: Page): Promise<SimDeviceHome> {
  const home = await openHome(page, {
    kinds: ['relay'],
    replies: switchRelayTwoOn,
    deviceOptions: 'profile=at-relay-4',
  });
  await page.getByTestId('composer-input').fill('Switch relay 2 on.');
  await page.getByTestId('send-button').click();
  return home;
}

function relayRow(page: Page) {
  return page.locator('[data-testid="tool-row"][data-tool-name="relay__set"]');
}

/** The open question as the page shows it: the card with the tool and its arguments, the row waiting, the header's count. */
async function expectQuestion(page: Page): Promise<void> {
  const card = page.getByTestId('approval-card');
  await expect(card).toHaveCount(1);
  await expect(card.getByTestId('approval-tool-name')).toHaveText('relay__set');
  await expect(card.getByTestId('approval-arg')).toHaveText(['device_id"relay-1"', 'channel2', 'ontrue']);
  await expect(card.getByTestId('approve-button')).toBeEnabled();
  await expect(card.getByTestId('deny-button')).toBeEnabled();
  await expect(relayRow(page)).toHaveAttribute('data-approval', 'waiting');
  await expect(relayRow(page).getByTestId('approval-waiting')).toHaveText('waiting for you');
  await expect(page.getByTestId('approvals-pending')).toHaveAttribute('data-count', '1');
  await expect(page.getByTestId('approvals-pending-count')).toHaveText('1');
}

/** The question answered: no card, no buttons, no count, the row's final state. */
async function expectAnswered(
  page: Page,
  outcome: { approval: 'allowed' | 'denied'; label: string; ok: boolean },
): Promise<void> {
  await expect(relayRow(page)).toHaveAttribute('data-status', 'done');
  await expect(relayRow(page)).toHaveAttribute('data-ok', String(outcome.ok));
  await expect(relayRow(page).getByTestId('approval-outcome')).toHaveAttribute('data-approval', outcome.approval);
  await expect(relayRow(page).getByTestId('approval-outcome')).toHaveText(outcome.label);
  await expect(page.getByTestId('approval-card')).toHaveCount(0);
  await expect(page.getByTestId('approve-button')).toHaveCount(0);
  await expect(page.getByTestId('deny-button')).toHaveCount(0);
  await expect(page.getByTestId('approvals-pending')).toHaveCount(0);
  await expect(page.getByTestId('turn')).toHaveAttribute('data-status', 'done');
}

test('Allow: the card asks, the relay switches, and the row ends ok', async ({ page }) => {
  const { sim, problems } = await askToSwitch(page);
  await expectQuestion(page);
  // Nothing took the focus for the person: a stray Enter cannot approve.
  await expect(page.getByTestId('approve-button')).not.toBeFocused();
  // Operable from the keyboard.
  await page.getByTestId('approve-button').focus();
  await page.keyboard.press('Enter');
  await expectAnswered(page, { approval: 'allowed', label: 'allowed by you', ok: true });
  // The simulator process, the independent witness: channel 2 (index 1) is on.
  const state = await sim.waitForState(
    'relay-1',
    (printed) => (printed.channels as boolean[] | undefined)?.[1] === true,
  );
  expect(state).toEqual({ channels: [false, true, false, false] });
  expect(problems).toEqual([]);
});

test('Deny: the row ends denied and the relay is never called', async ({ page }) => {
  const { sim, problems } = await askToSwitch(page);
  await expectQuestion(page);
  await page.getByTestId('deny-button').click();
  await expectAnswered(page, { approval: 'denied', label: 'denied by you', ok: false });
  await expect(relayRow(page).getByTestId('tool-error-reason')).toHaveText('denied');

  // The simulator prints a state line after every call it ran. Once its process has exited, all it
  // printed has been read: waitForState then answers at once from what is there, or never.
  await sim.stop();
  const printed = await Promise.race([sim.waitForState('relay-1', () => true), Promise.resolve('nothing printed')]);
  expect(printed).toBe('nothing printed');
  expect(problems).toEqual([]);
});

test('a reloaded page shows the open question live, and after the answer only the final state', async ({ page }) => {
  const { sim, problems } = await askToSwitch(page);
  await expectQuestion(page);

  // Reloaded while the host waits: the question comes back from the journal, still answerable.
  await page.reload();
  await expect(page.getByTestId('connection-status')).toHaveText('Connected');
  await expectQuestion(page);
  // The header's count leads to the card and focuses the card itself, not a button.
  await page.getByTestId('approvals-pending').click();
  await expect(page.getByTestId('approval-card')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('approve-button')).toBeFocused();
  await page.keyboard.press('Space');
  await expectAnswered(page, { approval: 'allowed', label: 'allowed by you', ok: true });
  await sim.waitForState('relay-1', (printed) => (printed.channels as boolean[] | undefined)?.[1] === true);

  // Reloaded after the answer: the journal holds the end, so no live buttons, only the outcome.
  await page.reload();
  await expect(page.getByTestId('connection-status')).toHaveText('Connected');
  await expect(relayRow(page)).toHaveCount(1);
  await expectAnswered(page, { approval: 'allowed', label: 'allowed by you', ok: true });
  await expect(page.locator('[data-testid="chat-message"][data-role="assistant"]')).toHaveText(['Done.']);
  expect(problems).toEqual([]);
});

test('two conversations whose calls share an id: each card answers its own question, and Always allow covers only its device', async ({
  page,
}) => {
  // Gemini and Ollama number calls per step: both conversations' calls are gemini-0-0.
  const switchOn = (deviceId: string): ScriptedReply => ({
    toolCalls: [{ id: 'gemini-0-0', name: 'relay__set', args: { device_id: deviceId, channel: 2, on: true } }],
  });
  const { sim, host, problems } = await openHome(page, {
    kinds: ['relay', 'relay'],
    replies: [switchOn('relay-1'), switchOn('relay-2'), { text: 'Done.' }, { text: 'Done.' }],
    deviceOptions: 'profile=at-relay-4',
  });
  const card = page.getByTestId('approval-card');
  const deviceArg = card.locator('[data-testid="approval-arg"][data-arg="device_id"]');

  await page.getByTestId('composer-input').fill('Switch relay 1 on.');
  await page.getByTestId('send-button').click();
  await expect(deviceArg).toHaveText('device_id"relay-1"');
  await page.getByTestId('new-conversation-button').click();
  await page.getByTestId('composer-input').fill('Switch relay 2 on.');
  await page.getByTestId('send-button').click();
  await expect(deviceArg).toHaveText('device_id"relay-2"');
  await expect(page.getByTestId('approvals-pending')).toHaveAttribute('data-count', '2');

  // The header leads to the oldest question, A's; Always allow there.
  await page.getByTestId('approvals-pending').click();
  await expect(deviceArg).toHaveText('device_id"relay-1"');
  await page.getByTestId('always-allow-button').click();
  await expect(relayRow(page).getByTestId('approval-outcome')).toHaveAttribute('data-approval', 'allowed');
  await expect(page.getByTestId('turn')).toHaveAttribute('data-status', 'done');
  // The simulator process, the independent witness: relay-1's channel 2 is on.
  expect(
    await sim.waitForState('relay-1', (printed) => (printed.channels as boolean[] | undefined)?.[1] === true),
  ).toEqual({ channels: [false, true, false, false] });
  // B's question still waits, and the standing approval is for relay-1 alone.
  await expect(page.getByTestId('approvals-pending')).toHaveAttribute('data-count', '1');
  expect(await callHost(host, 'approvals/list')).toEqual({
    approvals: [{ tool: 'relay__set', deviceId: 'relay-1', createdAt: expect.any(Number) }],
  });

  // B's own card still answers B.
  await page.getByTestId('approvals-pending').click();
  await expect(deviceArg).toHaveText('device_id"relay-2"');
  await page.getByTestId('deny-button').click();
  await expect(relayRow(page).getByTestId('approval-outcome')).toHaveAttribute('data-approval', 'denied');
  await expect(page.getByTestId('approvals-pending')).toHaveCount(0);
  // relay-2 was never switched: once the simulator process has exited, all it printed has been read.
  await sim.stop();
  const printed = await Promise.race([sim.waitForState('relay-2', () => true), Promise.resolve('nothing printed')]);
  expect(printed).toBe('nothing printed');
  expect(problems).toEqual([]);
});
