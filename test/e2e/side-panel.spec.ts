import { expect, test, type Page } from '@playwright/test';
import { callHost } from './helpers/call-host.ts';
import { makeHostFolder, walkingSkeletonReplies, type HostFolder } from './helpers/scripted-replies.ts';
import { startHost, type RunningHost } from './helpers/start-host.ts';
import { watchForPageProblems } from './helpers/watch-for-page-problems.ts';
import { startSimProcess, type SimProcess } from '../helpers/start-sim-process.ts';

let folder: HostFolder | undefined;
let host: RunningHost | undefined;
let sim: SimProcess | undefined;
let problems: string[] = [];

test.afterEach(async () => {
  await host?.stop();
  host = undefined;
  await sim?.stop();
  sim = undefined;
  await folder?.remove();
  folder = undefined;
});

async function openHost(page: Page): Promise<void> {
  problems = watchForPageProblems(page);
  folder = await makeHostFolder(walkingSkeletonReplies);
  host = await startHost({ dataDir: folder.dataDir, scriptFile: folder.scriptFile });
  await page.goto(host.url);
  await expect(page.getByTestId('connection-status')).toHaveText('Connected');
}

function settingInput(page: Page, key: string) {
  return page.locator(`[data-testid="setting-input"][data-setting="${key}"]`);
}

function settingError(page: Page, key: string) {
  return page.locator(`[data-testid="setting-error"][data-setting="${key}"]`);
}

async function storedSettings(): Promise<Record<string, unknown>> {
  return ((await callHost(host as RunningHost, 'settings/get')) as { settings: Record<string, unknown> }).settings;
}

async function pluginEnabled(name: string): Promise<boolean | undefined> {
  const { plugins } = (await callHost(host as RunningHost, 'plugins/list')) as {
    plugins: { name: string; enabled: boolean }[];
  };
  return plugins.find((plugin) => plugin.name === name)?.enabled;
}

test('the Devices tab lists the four simulated devices, online, with their tools', async ({ page }) => {
  await openHost(page);
  await page.locator('[data-testid="side-tab"][data-tab="devices"]').click();
  const rows = page.getByTestId('device-row');
  // --sim attaches lamp-1, lamp-2, thermometer-1 and display-1 (README, `serve --sim`).
  await expect(rows).toHaveCount(4);
  const ids = await rows.evaluateAll((elements) =>
    elements.map((element) => element.getAttribute('data-device-id')).sort(),
  );
  expect(ids).toEqual(['display-1', 'lamp-1', 'lamp-2', 'thermometer-1']);
  for (const id of ids)
    await expect(page.locator(`[data-testid="device-row"][data-device-id="${id}"]`)).toHaveAttribute(
      'data-online',
      'true',
    );
  await expect(page.locator('[data-testid="device-row"][data-device-id="lamp-1"]')).toContainText('set');
  await expect(page.locator('[data-testid="device-row"][data-device-id="thermometer-1"]')).toContainText('read');
  expect(problems).toEqual([]);
});

/** A host on devices of a separate simulator process (stopping it unplugs them all), its Devices tab open with all online. */
async function openHostOnSimProcess(page: Page): Promise<SimProcess> {
  const started = await startSimProcess({ kinds: ['lamp', 'lamp', 'thermometer'] });
  sim = started;
  folder = await makeHostFolder(walkingSkeletonReplies);
  host = await startHost({
    dataDir: folder.dataDir,
    scriptFile: folder.scriptFile,
    sim: false,
    extraArgs: started.devices.flatMap((device) => ['--device', device.path]),
  });
  await page.goto(host.url);
  await page.locator('[data-testid="side-tab"][data-tab="devices"]').click();
  await expect(page.locator('[data-testid="device-row"][data-online="true"]')).toHaveCount(3);
  return started;
}

test('Refresh shows devices that went away as offline', async ({ page }) => {
  const devices = await openHostOnSimProcess(page);
  await devices.stop();
  sim = undefined;
  // The host notices the lost ports on its own, a moment after the process is gone: press Refresh until it has.
  await expect(async () => {
    await page.getByTestId('devices-refresh').click();
    await expect(page.locator('[data-testid="device-row"][data-online="false"]')).toHaveCount(3, { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
});

test('devices that went away show offline once the next turn ends', async ({ page }) => {
  const devices = await openHostOnSimProcess(page);

  await devices.stop();
  sim = undefined;
  // Nothing re-reads the list until a turn ends: the send below is the only trigger. The turn calls
  // every device, and a call to a lost port marks its device offline before it returns.
  await page.getByTestId('composer-input').fill('Turn on both lamps and read the temperature.');
  await page.getByTestId('send-button').click();
  await expect(page.getByTestId('turn')).toHaveAttribute('data-status', 'done');
  await expect(page.locator('[data-testid="device-row"][data-online="false"]')).toHaveCount(3);
  await expect(page.locator('[data-testid="device-row"][data-online="true"]')).toHaveCount(0);
});

test('disabling a plugin that toolOrder names warns first: Cancel keeps it, Confirm disables it', async ({ page }) => {
  await openHost(page);
  await page.locator('[data-testid="side-tab"][data-tab="settings"]').click();
  await settingInput(page, 'toolOrder').fill('system_list_tools\n<unlisted-tools>');
  await page.getByTestId('settings-save').click();
  await expect(page.getByTestId('settings-status')).toHaveAttribute('data-failed', '0');
  expect((await storedSettings()).toolOrder).toEqual(['system_list_tools', '<unlisted-tools>']);

  await page.locator('[data-testid="side-tab"][data-tab="plugins"]').click();
  const toggle = page.locator('[data-testid="plugin-toggle"][data-plugin="system"]');
  await expect(toggle).toBeChecked();
  await toggle.click();
  const warning = page.getByTestId('plugin-warning');
  await expect(warning).toBeVisible();
  await expect(warning).toContainText('system_list_tools');
  await page.getByTestId('plugin-warning-cancel').click();
  await expect(warning).toHaveCount(0);
  await expect(toggle).toBeChecked();
  expect(await pluginEnabled('system')).toBe(true);

  await toggle.click();
  await expect(warning).toBeVisible();
  await page.getByTestId('plugin-warning-confirm').click();
  await expect(warning).toHaveCount(0);
  await expect(toggle).not.toBeChecked();
  await expect(page.locator('[data-testid="plugin-row"][data-plugin="system"]')).toHaveAttribute(
    'data-enabled',
    'false',
  );
  expect(await pluginEnabled('system')).toBe(false);

  // It applies from the next turn: the tool order now names a tool no enabled plugin has.
  await page.getByTestId('composer-input').fill('Turn on both lamps and read the temperature.');
  await page.getByTestId('send-button').click();
  await expect(page.getByTestId('turn')).toHaveAttribute('data-status', 'error');
  await expect(page.getByTestId('turn')).toContainText('system_list_tools');

  // Enabling again is never questioned.
  await toggle.click();
  await expect(toggle).toBeChecked();
  expect(await pluginEnabled('system')).toBe(true);
  expect(problems).toEqual([]);
});

test('a tool order without <unlisted-tools> shows the host’s error beside the field and is not saved', async ({
  page,
}) => {
  await openHost(page);
  await page.locator('[data-testid="side-tab"][data-tab="settings"]').click();
  await settingInput(page, 'toolOrder').fill('system_list_tools');
  await settingInput(page, 'maxSteps').fill('7');
  await page.getByTestId('settings-save').click();
  await expect(page.getByTestId('settings-status')).toHaveAttribute('data-failed', '1');
  await expect(page.getByTestId('setting-error')).toHaveCount(1);
  await expect(settingError(page, 'toolOrder')).toContainText('<unlisted-tools>');
  // Beside its field: inside the same field block as the textarea.
  await expect(
    page.locator('[data-testid="setting-field"][data-setting="toolOrder"]').getByTestId('setting-error'),
  ).toBeVisible();
  await expect(settingInput(page, 'toolOrder')).toHaveValue('system_list_tools');
  // The other field was saved; the refused one was not.
  expect(await storedSettings()).toEqual({ maxSteps: 7 });
  // The browser logs the refused request itself; nothing else may go wrong.
  expect(problems.filter((problem) => !problem.includes('status of 400'))).toEqual([]);
});

test('settings survive a host restart', async ({ page }) => {
  await openHost(page);
  await page.locator('[data-testid="side-tab"][data-tab="settings"]').click();
  await settingInput(page, 'model').fill('llama3.1');
  await settingInput(page, 'apiKeyEnv').fill('HOME_AGENT_TEST_KEY');
  await settingInput(page, 'persona').fill('Be brief.\nAnswer in English.');
  await settingInput(page, 'toolOrder').fill('lamp__set\n<unlisted-tools>\nsystem_list_tools');
  await settingInput(page, 'toolTimeoutMs').fill('15000');
  await page.getByTestId('settings-save').click();
  await expect(page.getByTestId('settings-status')).toHaveAttribute('data-failed', '0');
  // Every setting applies from the next turn (issue 10): the model too, without a restart.
  await expect(page.getByTestId('settings-status')).toContainText('Applies from the next turn.');

  await host?.stop();
  host = await startHost({ dataDir: (folder as HostFolder).dataDir, scriptFile: (folder as HostFolder).scriptFile });
  await page.goto(host.url);
  await expect(page.getByTestId('connection-status')).toHaveText('Connected');
  await page.locator('[data-testid="side-tab"][data-tab="settings"]').click();
  await expect(page.getByTestId('settings-form')).toHaveAttribute('data-status', 'loaded');
  await expect(settingInput(page, 'model')).toHaveValue('llama3.1');
  await expect(settingInput(page, 'apiKeyEnv')).toHaveValue('HOME_AGENT_TEST_KEY');
  await expect(settingInput(page, 'persona')).toHaveValue('Be brief.\nAnswer in English.');
  await expect(settingInput(page, 'toolOrder')).toHaveValue('lamp__set\n<unlisted-tools>\nsystem_list_tools');
  await expect(settingInput(page, 'toolTimeoutMs')).toHaveValue('15000');
  await expect(settingInput(page, 'maxSteps')).toHaveValue('');
  expect(await storedSettings()).toEqual({
    apiKeyEnv: 'HOME_AGENT_TEST_KEY',
    model: 'llama3.1',
    persona: 'Be brief.\nAnswer in English.',
    toolOrder: ['lamp__set', '<unlisted-tools>', 'system_list_tools'],
    toolTimeoutMs: 15000,
  });
});
