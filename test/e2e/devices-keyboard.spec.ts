import type { Locator, Page } from '@playwright/test';
import { expect, test } from './helpers/home-fixture.ts';
import { callHost } from './helpers/call-host.ts';

/** Presses Tab (or Shift+Tab) until `target` has the focus; fails after `limit` presses. */
async function tabTo(page: Page, target: Locator, options: { limit?: number; back?: boolean } = {}): Promise<void> {
  for (let press = 0; press < (options.limit ?? 60); press++) {
    if (await target.evaluate((element) => element === document.activeElement).catch(() => false)) return;
    await page.keyboard.press(options.back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

test('pairs a device and allows an action with the keyboard alone', async ({ page, home }) => {
  const sim = await home.sim({ kinds: ['thermometer', 'lamp'] });
  const lampPath = sim.devices.find((device) => device.kind === 'lamp')!.path;
  const host = await home.serve();
  await home.open(page, host);

  // The side tabs are one tab stop (the tabs pattern): Tab to the tab shown, then the arrow keys.
  const devicesTab = page.getByRole('tab', { name: 'Devices' });
  await tabTo(page, page.getByRole('tab', { selected: true }));
  for (let press = 0; press < 6 && (await devicesTab.getAttribute('aria-selected')) !== 'true'; press++)
    await page.keyboard.press('ArrowRight');
  await expect(devicesTab).toHaveAttribute('aria-selected', 'true');
  await tabTo(page, page.getByTestId('add-device'));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Add a device' })).toBeFocused();
  await expect(page.getByTestId('scan-status')).toContainText('none was opened');

  // Into the list of ports, then the arrow keys walk it until the lamp's port is chosen.
  await tabTo(page, page.getByRole('radio').first());
  for (let press = 0; press < 10 && !(await page.getByRole('radio', { name: lampPath }).isChecked()); press++)
    await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('radio', { name: lampPath })).toBeChecked();
  await expect(page.getByTestId('device-path-input')).toHaveValue(lampPath);
  await tabTo(page, page.getByRole('button', { name: 'Look at this device' }));
  await page.keyboard.press('Enter');

  await expect(page.getByRole('heading', { name: `Found a lamp at ${lampPath}` })).toBeFocused();
  await tabTo(page, page.getByRole('textbox', { name: 'Name' }));
  await page.keyboard.press('Control+A');
  await page.keyboard.type('Reading lamp');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('paired-message')).toContainText('Paired Reading lamp.');
  await expect(page.getByText('Paired Reading lamp.')).toBeFocused();

  await tabTo(page, page.getByRole('button', { name: 'Done' }));
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('add-device-panel')).toHaveCount(0);
  await expect(page.getByTestId('add-device')).toBeFocused();

  const allowSet = page.getByRole('switch', { name: 'Allow set on Reading lamp' });
  await tabTo(page, allowSet);
  await page.keyboard.press('Space');
  await expect(allowSet).toBeChecked();
  await expect(allowSet).toBeFocused();

  // Rename and Forget (kept) by keyboard too; Escape keeps the device.
  await tabTo(page, page.getByRole('button', { name: 'Forget Reading lamp' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Keep it' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: 'Forget Reading lamp' })).toBeFocused();

  const stored = (await callHost(host, 'devices/list')) as {
    devices: { id: string; alias: string; granted: string[] }[];
  };
  expect(stored.devices.map((device) => [device.id, device.alias, device.granted])).toEqual([
    ['lamp-1', 'Reading lamp', ['set']],
  ]);
  expect(home.problems).toEqual([]);
});
