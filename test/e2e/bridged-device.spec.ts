import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './helpers/home-fixture.ts';
import { callHost } from './helpers/call-host.ts';
import type { ScriptedReply } from './helpers/scripted-replies.ts';
import { mosquittoMissing, startMosquitto, TEST_USERS, type Mosquitto } from '../helpers/mosquitto.ts';
import { startBridgeOn, type BridgeProcess } from '../helpers/start-bridge-process.ts';

// A device on another machine, through the window: a real Mosquitto with a password file and the
// ACL docs/scale-out.md gives (its users renamed to the test broker's), `home-agent bridge --sim` as a
// process of its own, `home-agent serve --mqtt` with a scripted model.

const missing = mosquittoMissing();
test.skip(missing !== undefined, missing);

/**
 * docs/scale-out.md's ACL, with `cellar` as the test broker's `bridge` and `desktop` as its `host`
 * (without the host's `sync/#` line, its scan and pairing are refused: 0x87 on the sync marker).
 */
const SCALE_OUT_ACL = [
  'user bridge',
  'topic readwrite home-agent/bridge-e2e/#',
  '',
  'user host',
  'topic read home-agent/+/availability',
  'topic read home-agent/+/device/+/description',
  'topic write home-agent/+/pair',
  'topic read home-agent/+/pair/reply/#',
  'topic write home-agent/+/device/+/request',
  'topic write home-agent/+/device/+/grant/#',
  'topic read home-agent/+/reply/#',
  'topic read home-agent/+/device/+/event/#',
  'topic readwrite home-agent/sync/#',
  '',
].join('\n');
const BRIDGE = 'bridge-e2e';
const HOST_ENV = { HOST_PW: TEST_USERS.host.password };

let mosquitto: Mosquitto;
test.beforeAll(async () => {
  mosquitto = await startMosquitto({
    users: [TEST_USERS.host, TEST_USERS.bridge],
    acl: SCALE_OUT_ACL,
  });
});
test.afterAll(async () => {
  await mosquitto?.stop();
});

const broker = (): string[] => ['--mqtt', mosquitto.url('host'), '--mqtt-password-env', 'HOST_PW'];

/** A bridge of the simulated devices on this file's broker, stopped with the test's home; `dataDir` to come back as the same bridge. */
async function bridge(home: { adopt(stop: () => Promise<void>): void }, dataDir: string): Promise<BridgeProcess> {
  const started = await startBridgeOn(mosquitto, {
    name: BRIDGE,
    dataDir,
    sim: true,
    args: ['--sim-latency-ms', '0'],
  });
  home.adopt(() => started.stop());
  return started;
}

function card(page: Page, deviceId: string) {
  return page.locator(`[data-testid="device-row"][data-device-id="${deviceId}"]`);
}

const readThermometer: ScriptedReply[] = [
  { toolCalls: [{ name: 'thermometer__read', args: { device_id: `${BRIDGE}.thermometer-1` } }] },
  { text: 'It is 21.5 °C in the cellar.' },
];

test('pairs a bridged device with its bridge’s code typed in the window, grants it, and a turn’s batch shows its answer', async ({
  page,
  home,
}) => {
  const piDir = await home.tempDir('pi');
  const pi = await bridge(home, piDir);
  const host = await home.serve({ replies: readThermometer, args: broker(), env: HOST_ENV });
  await home.open(page, host);
  await page.locator('[data-testid="side-tab"][data-tab="devices"]').click();
  await page.getByTestId('add-device').click();

  const found = page.locator(`[data-testid="found-device-option"][data-path="mqtt:${BRIDGE}/thermometer-1"]`);
  await expect(found).toContainText(
    `a device of a Home Agent bridge · says it is thermometer ${BRIDGE}.thermometer-1 (SimTH 2) · online`,
  );
  await home.screenshot(page, 'bridged/01-found');
  await found.getByRole('radio').check();

  // The bridge's first device needs the code it printed: asked in a labelled field, checked before anything is sent.
  const codeField = page.getByRole('textbox', { name: 'Pairing code', exact: true });
  await expect(codeField).toBeVisible();
  await page.getByTestId('probe-device').click();
  await expect(page.getByTestId('pairing-code-error')).toHaveText('Enter the pairing code its bridge printed.');
  await expect(codeField).toBeFocused();
  await expect(codeField).toHaveAttribute('aria-invalid', 'true');
  await codeField.fill('7KQ2 M9XD');
  await page.getByTestId('probe-device').click();
  await expect(page.getByTestId('pairing-code-error')).toHaveText(
    'A pairing code is letters, digits and - as the bridge printed it, with no spaces.',
  );
  await expect(codeField).toHaveAccessibleDescription(/The code its bridge printed when it started.*no spaces\.$/);
  // The field, its hint and its error pass axe-core (no serious or critical violation).
  const axe = await new AxeBuilder({ page }).include('#side-tab-panel').analyze();
  expect(
    axe.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical'),
  ).toEqual([]);
  await home.screenshot(page, 'bridged/01b-code-refused');
  // A well-formed code that is not the bridge's: the bridge's refusal, and no advice about ports or profiles.
  await codeField.fill('AAAA-BBBB-CCCC-DDDD');
  await page.getByTestId('probe-device').click();
  const probeError = page.getByTestId('probe-error');
  await expect(probeError).toContainText('the pairing code does not match');
  await expect(probeError).not.toContainText('profile');
  await codeField.fill(pi.pairingCode);
  await page.getByTestId('probe-device').click();

  const shown = page.getByTestId('shown-device');
  await expect(shown.getByTestId('shown-identity')).toContainText(`thermometerId${BRIDGE}.thermometer-1ModelSimTH 2`);
  await expect(shown.getByTestId('shown-actions')).toContainText('read');
  // The code is not shown back anywhere on the page.
  expect(await page.content()).not.toContain(pi.pairingCode);
  await home.screenshot(page, 'bridged/02-identity');
  await page.getByTestId('device-alias-input').fill('Cellar thermometer');
  await page.getByTestId('pair-device').click();
  await expect(page.getByTestId('paired-message')).toContainText('Paired Cellar thermometer. The agent may use none');
  await page.getByTestId('close-add-device').click();

  const thermometer = card(page, `${BRIDGE}.thermometer-1`);
  await expect(thermometer).toHaveAttribute('data-status', 'online');
  const allowRead = thermometer.getByRole('switch', { name: 'Allow read on Cellar thermometer' });
  await expect(allowRead).not.toBeChecked();
  await allowRead.click();
  await expect(allowRead).toBeChecked();
  const stored = (await callHost(host, 'devices/list')) as { devices: { id: string; granted: string[] }[] };
  expect(stored.devices.map((device) => [device.id, device.granted])).toEqual([[`${BRIDGE}.thermometer-1`, ['read']]]);
  // Neither the code nor the broker password is kept in the host's data folder.
  for (const file of readdirSync(home.dataDir)) {
    // The home's socket (host.sock) holds nothing to read.
    if (!statSync(path.join(home.dataDir, file)).isFile()) continue;
    const bytes = readFileSync(path.join(home.dataDir, file));
    expect(bytes.includes(Buffer.from(pi.pairingCode)), file).toBe(false);
    expect(bytes.includes(Buffer.from(TEST_USERS.host.password)), file).toBe(false);
  }

  const turns = page.getByTestId('turn');
  await page.getByTestId('composer-input').fill('How warm is it in the cellar?');
  await page.getByTestId('send-button').click();
  await expect(turns).toHaveCount(1);
  await expect(turns.last()).toHaveAttribute('data-status', 'done');
  const row = page.locator('[data-testid="tool-row"][data-tool-name="thermometer__read"]');
  await expect(row).toHaveAttribute('data-ok', 'true');
  await row.getByTestId('tool-row-toggle').click();
  await expect(row.getByTestId('tool-details-outcome')).toHaveText('done — it ran and succeeded');
  await expect(row.getByTestId('tool-details-result')).toHaveText(
    `{\n  "device_id": "${BRIDGE}.thermometer-1",\n  "result": {\n    "celsius": 21.5,\n    "humidity": 45\n  }\n}`,
  );
  await pi.stderrWhen(/paired with host [0-9a-f]{16}/);
  await home.screenshot(page, 'bridged/03-turn');
  expect(home.problems).toEqual([]);
});

test('shows a bridged device offline when its bridge is killed, and online again when a new bridge starts', async ({
  page,
  home,
}) => {
  const piDir = await home.tempDir('pi');
  const first = await bridge(home, piDir);
  const host = await home.serve({ args: broker(), env: HOST_ENV });
  await home.cli(
    [
      'devices',
      'pair',
      `mqtt:${BRIDGE}/lamp-1`,
      ...broker(),
      '--code',
      first.pairingCode,
      '--yes',
      '--alias',
      'Cellar lamp',
    ],
    HOST_ENV,
  );
  await home.open(page, host);
  await page.locator('[data-testid="side-tab"][data-tab="devices"]').click();
  const lamp = card(page, `${BRIDGE}.lamp-1`);
  await expect(lamp).toHaveAttribute('data-status', 'online');

  // SIGKILL: no goodbye, so the broker publishes the bridge's last will.
  await first.kill();
  await expect(lamp).toHaveAttribute('data-status', 'offline');
  await expect(lamp.getByTestId('device-status')).toHaveText('offline');
  await home.screenshot(page, 'bridged/04-bridge-gone');

  // The same bridge (its data folder keeps this host's key) comes back: no new pairing.
  await bridge(home, piDir);
  await expect(lamp).toHaveAttribute('data-status', 'online');
  await home.screenshot(page, 'bridged/05-bridge-back');
  expect(home.problems).toEqual([]);
});
