import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './helpers/home-fixture.ts';

/** axe-core on the Devices tab's panel; returns the serious and critical violations, and attaches all of them. */
async function axeDevicesTab(page: Page, state: string): Promise<string[]> {
  const result = await new AxeBuilder({ page }).include('#side-tab-panel').analyze();
  await test.info().attach(`axe-${state}.json`, {
    body: JSON.stringify(
      result.violations.map((violation) => ({
        id: violation.id,
        impact: violation.impact,
        nodes: violation.nodes.map((node) => node.target.join(' ')),
      })),
      null,
      2,
    ),
    contentType: 'application/json',
  });
  // Printed so a run's log says what axe found at every impact, not only the serious ones.
  console.log(
    `axe on the Devices tab (${state}): ${result.violations.length === 0 ? 'no violations' : result.violations.map((violation) => `${violation.id} (${violation.impact}, ${violation.nodes.length})`).join(', ')}; ${result.passes.length} rules passed`,
  );
  return result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id}: ${violation.help} — ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}

test('the Devices tab has no serious or critical accessibility violation, in every state of pairing', async ({
  page,
  home,
}) => {
  const dir = await home.tempDir('sim-dir');
  const sim = await home.sim({ kinds: ['lamp', 'relay'], dir });
  const host = await home.serve();
  await home.pairGardenRelay(sim.devices[1]!.path);
  await home.open(page, host);
  await page.getByRole('tab', { name: 'Devices' }).click();
  await expect(page.locator('[data-testid="device-row"][data-device-id="relay-1"]')).toHaveAttribute(
    'data-status',
    'online',
  );
  expect(await axeDevicesTab(page, 'a paired device')).toEqual([]);

  await page.getByTestId('add-device').click();
  await expect(page.getByTestId('scan-status')).toContainText('none was opened');
  expect(await axeDevicesTab(page, 'ports found')).toEqual([]);

  await page.getByRole('radio', { name: sim.devices[0]!.path }).check();
  await page.getByTestId('probe-device').click();
  await expect(page.getByTestId('shown-device')).toBeVisible();
  expect(await axeDevicesTab(page, 'a device shown')).toEqual([]);
  await page.getByTestId('pair-device').click();
  await expect(page.getByTestId('paired-message')).toBeVisible();
  expect(await axeDevicesTab(page, 'paired')).toEqual([]);
  await page.getByTestId('close-add-device').click();

  // Offline with its last error, then back as another device (an identity change), and a question to forget.
  await sim.stop();
  await expect(page.locator('[data-testid="device-row"][data-device-id="lamp-1"]')).toHaveAttribute(
    'data-status',
    'offline',
  );
  await home.sim({ kinds: ['lamp', 'relay'], dir, ids: ['lamp-9', 'relay-1'] });
  await expect(page.getByTestId('identity-change')).toBeVisible();
  await page.getByRole('button', { name: 'Forget Garden relay' }).click();
  await expect(page.getByTestId('forget-question')).toBeVisible();
  expect(await axeDevicesTab(page, 'identity change and forget question')).toEqual([]);
  expect(home.problems).toEqual([]);
});
