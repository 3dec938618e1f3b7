import type { Page } from '@playwright/test';
import { expect, test } from './helpers/home-fixture.ts';
import { callHost } from './helpers/call-host.ts';
import type { ScriptedReply } from './helpers/scripted-replies.ts';

// End-to-end pairing: `serve` with no --sim, the devices in a separate `home-agent sim` process,
// everything done in the window (or, where the test says so, with the CLI on the same data folder).

function devicesTab(page: Page) {
  return page.locator('[data-testid="side-tab"][data-tab="devices"]');
}

function card(page: Page, deviceId: string) {
  return page.locator(`[data-testid="device-row"][data-device-id="${deviceId}"]`);
}

function toolRow(page: Page, name: string) {
  return page.locator(`[data-testid="tool-row"][data-tool-name="${name}"]`);
}

/** Sends a message and waits for its turn to end; the last turn on the page is this one. */
async function send(page: Page, text: string): Promise<void> {
  const turns = page.getByTestId('turn');
  const before = await turns.count();
  await page.getByTestId('composer-input').fill(text);
  await page.getByTestId('send-button').click();
  await expect(turns).toHaveCount(before + 1);
}

async function lastTurnDone(page: Page): Promise<void> {
  await expect(page.getByTestId('turn').last()).toHaveAttribute('data-status', 'done');
}

const lampAndRelay: ScriptedReply[] = [
  {
    toolCalls: [
      { name: 'lamp__set', args: { device_id: 'lamp-1', on: true } },
      { name: 'relay__set', args: { device_id: 'relay-1', channel: 2, on: true } },
    ],
  },
  { text: 'The desk lamp and relay 2 are on.' },
];

test('adds a lamp and a relay from the window, grants them, and a turn uses them', async ({ page, home }) => {
  const sim = await home.sim({ kinds: ['lamp', 'relay'] });
  const [lamp, relay] = sim.devices;
  const host = await home.serve({ replies: lampAndRelay });
  await home.open(page, host);
  await devicesTab(page).click();
  await expect(page.getByTestId('devices-empty')).toBeVisible();
  await home.screenshot(page, '01-devices-empty');

  await page.getByTestId('add-device').click();
  const ports = page.getByTestId('port-option');
  await expect(page.getByTestId('scan-status')).toContainText('none was opened');
  await expect(ports.filter({ hasText: lamp!.path })).toContainText('a port of a running home-agent sim');
  await expect(ports.filter({ hasText: relay!.path })).toContainText('plays relay relay-1 (profile at-relay-4)');
  await home.screenshot(page, '02-scan-found-ports');

  await ports.filter({ hasText: lamp!.path }).locator('input').check();
  await page.getByTestId('probe-device').click();
  const shown = page.getByTestId('shown-device');
  await expect(shown.getByTestId('shown-identity')).toContainText('lampIdlamp-1ModelSimLamp 1Firmware1.0.0');
  await expect(shown.getByTestId('shown-actions')).toContainText('set — Switch the lamp on or off');
  await expect(shown.getByTestId('asks-approval')).toHaveCount(0);
  await page.getByTestId('device-alias-input').fill('Desk lamp');
  await home.screenshot(page, '03-lamp-identity');
  await page.getByTestId('pair-device').click();
  await expect(page.getByTestId('paired-message')).toContainText('Paired Desk lamp. The agent may use none');
  await expect(card(page, 'lamp-1')).toHaveAttribute('data-status', 'online');
  await expect(card(page, 'lamp-1').getByRole('switch', { name: 'Allow set on Desk lamp' })).not.toBeChecked();
  await home.screenshot(page, '04-lamp-paired');

  await page.getByTestId('add-another').click();
  await ports.filter({ hasText: relay!.path }).locator('input').check();
  await expect(page.getByTestId('device-profile-select')).toHaveValue('at-relay-4');
  await page.getByTestId('probe-device').click();
  await expect(page.getByTestId('shown-actions').locator('[data-action="set"]')).toContainText(
    'asks you before each use',
  );
  await page.getByTestId('device-alias-input').fill('Garden relay');
  await home.screenshot(page, '05-relay-identity');
  await page.getByTestId('pair-device').click();
  await expect(page.getByTestId('paired-message')).toContainText('Paired Garden relay.');
  await page.getByTestId('close-add-device').click();

  // Nothing is allowed yet: the host says so too.
  const stored = (await callHost(host, 'devices/list')) as { devices: { id: string; granted: string[] }[] };
  expect(stored.devices.map((device) => [device.id, device.granted])).toEqual([
    ['lamp-1', []],
    ['relay-1', []],
  ]);
  // The switch shows what the host stored: a click asks, the host's answer flips it.
  await card(page, 'lamp-1').getByRole('switch', { name: 'Allow set on Desk lamp' }).click();
  await page.getByRole('button', { name: 'Allow all on Garden relay' }).click();
  await expect(card(page, 'relay-1').getByRole('switch', { name: 'Allow set on Garden relay' })).toBeChecked();
  await expect(card(page, 'lamp-1').getByRole('switch', { name: 'Allow set on Desk lamp' })).toBeChecked();
  await expect(card(page, 'lamp-1').getByRole('switch', { name: 'Allow get on Desk lamp' })).not.toBeChecked();
  await home.screenshot(page, '06-granted');

  await send(page, 'Turn on the desk lamp and relay 2.');
  const card2 = page.getByTestId('approval-card');
  await expect(card2.getByTestId('approval-arg')).toHaveText(['device_id"relay-1"', 'channel2', 'ontrue']);
  await expect(card2.getByTestId('always-allow-scope')).toContainText('relay__set on Garden relay');
  await home.screenshot(page, '07-approval-card');
  await card2.getByTestId('approve-button').click();
  await lastTurnDone(page);
  await expect(toolRow(page, 'lamp__set')).toHaveAttribute('data-ok', 'true');
  await expect(toolRow(page, 'relay__set')).toHaveAttribute('data-ok', 'true');
  expect(await sim.waitForState('lamp-1', (state) => state.on === true)).toMatchObject({ on: true });
  await home.screenshot(page, '08-turn-used-them');
  expect(home.problems).toEqual([]);
});

const lampTurns = (count: number): ScriptedReply[] =>
  Array.from({ length: count }, () => [
    { toolCalls: [{ name: 'lamp__set', args: { device_id: 'lamp-1', on: true } }] },
    { text: 'ok' },
  ]).flat();

test('a revocation in the window or with the CLI applies to the next call; pairing with the CLI shows live', async ({
  page,
  home,
}) => {
  const sim = await home.sim({ kinds: ['lamp'] });
  const host = await home.serve({ replies: lampTurns(4) });
  await home.open(page, host);
  await devicesTab(page).click();
  await expect(page.getByTestId('devices-empty')).toBeVisible();

  // Paired by another process while serve runs: it appears without a refresh or a reload.
  await home.cli(['devices', 'pair', sim.devices[0]!.path, '--yes', '--alias', 'Desk lamp']);
  const lampSwitch = card(page, 'lamp-1').getByRole('switch', { name: 'Allow set on Desk lamp' });
  await expect(card(page, 'lamp-1')).toHaveAttribute('data-status', 'online');
  await lampSwitch.click();
  await expect(lampSwitch).toBeChecked();
  await send(page, 'Lamp on.');
  await lastTurnDone(page);
  await expect(toolRow(page, 'lamp__set').last()).toHaveAttribute('data-ok', 'true');

  await lampSwitch.click();
  await expect(lampSwitch).not.toBeChecked();
  await send(page, 'Lamp on again.');
  await lastTurnDone(page);
  await expect(toolRow(page, 'lamp__set').last().getByTestId('tool-error-reason')).toHaveText('unauthorized');

  await lampSwitch.click();
  await expect(lampSwitch).toBeChecked();
  await send(page, 'And again.');
  await lastTurnDone(page);
  await expect(toolRow(page, 'lamp__set').last()).toHaveAttribute('data-ok', 'true');

  await home.cli(['devices', 'revoke', 'lamp-1', 'set']);
  await send(page, 'Once more.');
  await lastTurnDone(page);
  await expect(toolRow(page, 'lamp__set').last().getByTestId('tool-error-reason')).toHaveText('unauthorized');
  // The window shows the CLI's revocation too, live.
  await expect(lampSwitch).not.toBeChecked();
  expect(home.problems).toEqual([]);
});

test('a device that goes away shows offline within 2 s; back on its path as another device, it is shown and trusted', async ({
  page,
  home,
}) => {
  const dir = await home.tempDir('sim-dir');
  const sim = await home.sim({ kinds: ['lamp'], dir });
  const host = await home.serve();
  await home.cli(['devices', 'pair', sim.devices[0]!.path, '--yes', '--alias', 'Desk lamp']);
  await home.cli(['devices', 'grant', 'lamp-1', '--all']);
  await home.open(page, host);
  await devicesTab(page).click();
  await expect(card(page, 'lamp-1')).toHaveAttribute('data-status', 'online');

  await sim.stop();
  // The bound: within two seconds of the simulator's exit, the window says offline.
  await expect(card(page, 'lamp-1')).toHaveAttribute('data-status', 'offline', { timeout: 2_000 });
  await expect(card(page, 'lamp-1').getByTestId('device-last-error')).toBeVisible();
  await home.screenshot(page, '09-offline');

  const again = await home.sim({ kinds: ['lamp'], dir, ids: ['lamp-9'] });
  expect(again.devices[0]!.path).toBe(sim.devices[0]!.path);
  const change = card(page, 'lamp-1').getByTestId('identity-change');
  await expect(change.getByTestId('identity-trusted')).toContainText('Idlamp-1');
  await expect(change.getByTestId('identity-current')).toContainText('Idlamp-9 (changed)');
  await expect(card(page, 'lamp-1').getByRole('switch', { name: 'Allow set on Desk lamp' })).toBeChecked();
  await home.screenshot(page, '10-identity-changed');
  await change.getByRole('button', { name: 'Trust the new identity' }).click();
  await expect(card(page, 'lamp-9')).toHaveAttribute('data-status', 'online');
  await expect(card(page, 'lamp-9').getByTestId('identity-change')).toHaveCount(0);
  await expect(card(page, 'lamp-9').getByRole('switch', { name: 'Allow set on Desk lamp' })).toBeChecked();
  await expect(card(page, 'lamp-1')).toHaveCount(0);
  await home.screenshot(page, '11-identity-trusted');
  expect(home.problems).toEqual([]);
});

const relayTurns = (count: number): ScriptedReply[] =>
  Array.from({ length: count }, () => [
    { toolCalls: [{ name: 'relay__set', args: { device_id: 'relay-1', channel: 1, on: true } }] },
    { text: 'ok' },
  ]).flat();

test('Always allow lets the next call run unasked; revoking it asks again', async ({ page, home }) => {
  const sim = await home.sim({ kinds: ['relay'] });
  const host = await home.serve({ replies: relayTurns(3) });
  await home.pairGardenRelay(sim.devices[0]!.path);
  await home.open(page, host);

  await send(page, 'Relay 1 on.');
  const question = page.getByTestId('approval-card');
  await question.getByTestId('always-allow-button').click();
  await lastTurnDone(page);
  await expect(toolRow(page, 'relay__set').last()).toHaveAttribute('data-ok', 'true');

  await send(page, 'Relay 1 on again.');
  await lastTurnDone(page);
  await expect(toolRow(page, 'relay__set').last()).toHaveAttribute('data-approval', 'standing');
  await expect(toolRow(page, 'relay__set').last().getByTestId('approval-outcome')).toHaveText('always allowed');
  await expect(page.getByTestId('approval-card')).toHaveCount(0);

  await devicesTab(page).click();
  const grant = card(page, 'relay-1').locator('[data-testid="grant-row"][data-action="set"]');
  await expect(grant.getByTestId('always-allowed')).toBeVisible();
  await home.screenshot(page, '12-always-allowed');
  await page.getByRole('button', { name: 'Stop always allowing set on Garden relay' }).click();
  await expect(grant.getByTestId('always-allowed')).toHaveCount(0);
  expect(((await callHost(host, 'approvals/list')) as { approvals: unknown[] }).approvals).toEqual([]);

  await send(page, 'And once more.');
  await expect(page.getByTestId('approval-card')).toHaveCount(1);
  await page.getByTestId('deny-button').click();
  await lastTurnDone(page);
  await expect(toolRow(page, 'relay__set').last()).toHaveAttribute('data-approval', 'denied');
  expect(home.problems).toEqual([]);
});

test('an open tab follows serve through a restart with no new address, and a bookmark gets in', async ({
  page,
  home,
  context,
}) => {
  const first = await home.serve({ replies: [{ text: 'before' }, { text: 'after' }] });
  await home.open(page, first);
  const port = Number(new URL(first.origin).port);
  await first.stop();
  await expect(page.getByTestId('connection-status')).toHaveText('Reconnecting…');
  await expect(page.getByTestId('notice')).toContainText('reconnecting');
  await home.screenshot(page, '13-reconnecting');
  const second = await home.serve({ port });
  expect(second.token).toBe(first.token);
  await expect(page.getByTestId('connection-status')).toHaveText('Connected');
  await send(page, 'Still there?');
  await lastTurnDone(page);

  // The plain address (a bookmark, the token long gone from the address bar) gets in too.
  const bookmark = await context.newPage();
  await bookmark.goto(second.origin);
  await expect(bookmark.getByTestId('connection-status')).toHaveText('Connected');
  await bookmark.close();
  expect(home.problems.filter((problem) => !problem.includes('ERR_CONNECTION_REFUSED'))).toEqual([]);
});
