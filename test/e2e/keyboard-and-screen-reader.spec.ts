import { expect, openPage, send, test } from './helpers/harness.ts';
import { walkingSkeletonReplies } from './helpers/scripted-replies.ts';

test('landmarks are named for what they hold, messages say who speaks, and live regions tell what happened', async ({
  page,
  harness,
}) => {
  const folder = await harness.folder(walkingSkeletonReplies);
  const host = await harness.host({
    dataDir: folder.dataDir,
    scriptFile: folder.scriptFile,
    extraArgs: ['--sim-latency-ms', '20'],
  });
  const problems = await openPage(page, host);
  await expect(page.getByRole('banner')).toHaveCount(1);
  await expect(page.getByRole('navigation', { name: 'Conversations' })).toBeVisible();
  await expect(page.getByRole('main')).toHaveCount(1);
  await expect(page.getByRole('complementary', { name: 'Channels, devices, plugins and settings' })).toBeVisible();
  // The message box has the focus from the start, and a name.
  await expect(page.getByRole('textbox', { name: 'Message to Home Agent' })).toBeFocused();

  await page.keyboard.type('Turn on both lamps and read the temperature.');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('turn')).toHaveAttribute('data-status', 'done');
  await expect(page.locator('.chat-message-user .chat-speaker')).toHaveText(['You']);
  await expect(page.locator('.chat-message-assistant .chat-speaker')).toHaveText(['Home Agent']);
  // The polite region ends with the reply, said once it was complete.
  await expect(page.getByTestId('live-polite')).toHaveText('Home Agent: Done.');
  await expect(page.getByTestId('live-polite')).toHaveAttribute('aria-live', 'polite');
  await expect(page.getByTestId('composer-input')).toBeFocused();
  await expect(page.getByRole('button', { name: /^Turn on both lamps/ })).toHaveAttribute('aria-current', 'page');
  expect(problems).toEqual([]);
});

test('the side tabs follow the tabs pattern: one tab stop, arrow keys, Home and End', async ({ page, harness }) => {
  const folder = await harness.folder(walkingSkeletonReplies);
  const host = await harness.host({ dataDir: folder.dataDir, scriptFile: folder.scriptFile });
  await openPage(page, host);
  const tab = (name: string) => page.getByRole('tab', { name });
  await tab('Channels').focus();
  await expect(page.locator('[role="tab"][tabindex="0"]')).toHaveCount(1);
  await page.keyboard.press('ArrowRight');
  await expect(tab('Devices')).toBeFocused();
  await expect(tab('Devices')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tabpanel')).toHaveAttribute('aria-labelledby', 'side-tab-devices');
  await page.keyboard.press('End');
  await expect(tab('Settings')).toBeFocused();
  await expect(tab('Settings')).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowRight');
  await expect(tab('Channels')).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(tab('Settings')).toBeFocused();
  await page.keyboard.press('Home');
  await expect(tab('Channels')).toHaveAttribute('aria-selected', 'true');
  // Tab leaves the tab list for the panel: only the selected tab is a stop.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('tabpanel')).toBeFocused();
});

test('switching a plugin with Space keeps the focus on its switch', async ({ page, harness }) => {
  const folder = await harness.folder(walkingSkeletonReplies);
  const host = await harness.host({ dataDir: folder.dataDir, scriptFile: folder.scriptFile });
  await openPage(page, host);
  await page.getByRole('tab', { name: 'Plugins' }).click();
  const toggle = page.locator('[data-testid="plugin-toggle"][data-plugin="sequences"]');
  await toggle.focus();
  await page.keyboard.press('Space');
  await expect(page.locator('[data-testid="plugin-row"][data-plugin="sequences"]')).toHaveAttribute(
    'data-enabled',
    'false',
  );
  await expect(toggle).toBeFocused();
  await page.keyboard.press('Space');
  await expect(page.locator('[data-testid="plugin-row"][data-plugin="sequences"]')).toHaveAttribute(
    'data-enabled',
    'true',
  );
  await expect(toggle).toBeFocused();
});

test('on a phone, the drawers open from the header, close with Escape and give the focus back', async ({
  page,
  harness,
}) => {
  await page.setViewportSize({ width: 360, height: 780 });
  const folder = await harness.folder(walkingSkeletonReplies);
  const host = await harness.host({
    dataDir: folder.dataDir,
    scriptFile: folder.scriptFile,
    extraArgs: ['--sim-latency-ms', '20'],
  });
  await openPage(page, host);
  const list = page.getByRole('navigation', { name: 'Conversations' });
  // Closed drawers are out of sight and out of the accessibility tree.
  await expect(list).toBeHidden();
  await expect(page.getByRole('complementary')).toBeHidden();
  await send(page, 'Turn on both lamps and read the temperature.');
  await page.getByRole('button', { name: 'Conversations', exact: true }).click();
  await expect(list).toBeVisible();
  await expect(page.getByRole('button', { name: 'Conversations', exact: true })).toHaveAttribute(
    'aria-expanded',
    'true',
  );
  await page.keyboard.press('Escape');
  await expect(list).toBeHidden();
  await expect(page.getByRole('button', { name: 'Conversations', exact: true })).toBeFocused();
  await page.getByRole('button', { name: 'Devices & settings' }).press('Enter');
  await expect(page.getByRole('complementary')).toBeVisible();
  await page.getByRole('tab', { name: 'Devices' }).click();
  await expect(page.getByTestId('device-row')).toHaveCount(4);
  // The backdrop closes it too.
  await page.getByTestId('drawer-backdrop').click({ position: { x: 10, y: 400 } });
  await expect(page.getByRole('complementary')).toBeHidden();
  // The chat has the whole width: nothing of it is cut off.
  const chat = await page.getByRole('main').boundingBox();
  expect(chat?.width).toBe(360);
});
