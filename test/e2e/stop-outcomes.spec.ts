import { expect, openPage, test } from './helpers/harness.ts';

test('Stop during a slow lamp call says the outcome is unknown and shows the state read afterwards, the simulator’s own', async ({
  page,
  harness,
}) => {
  // Lamps in their own process that take 3 s to answer: the witness of what really happened.
  const sim = await harness.sim({ kinds: ['lamp', 'lamp'], latencyMs: 3000 });
  const folder = await harness.folder();
  const host = await harness.host({
    dataDir: folder.dataDir,
    provider: 'demo',
    sim: false,
    extraArgs: sim.devices.flatMap((device) => ['--device', device.path]),
  });
  const problems = await openPage(page, host);
  await page.getByTestId('composer-input').fill('turn on all lamps');
  await page.getByTestId('composer-input').press('Enter');
  const rows = page.getByTestId('tool-row');
  // Both requests are on the wire once their rows run (tool/start precedes the write by microtasks only).
  await expect(page.locator('[data-testid="tool-row"][data-status="running"]')).toHaveCount(2);
  await page.getByTestId('stop-button').click();
  // While the lamps are read back (3 s each here), the page says so instead of looking stuck.
  await expect(page.getByTestId('turn-stopping')).toHaveText('Stopping: reading the devices that may have acted…');
  await expect(page.getByTestId('stop-button')).toHaveText('Stopping…');

  await expect(page.getByTestId('turn')).toHaveAttribute('data-status', 'aborted');
  await expect(page.getByTestId('turn-stopping')).toHaveCount(0);
  for (const index of [0, 1]) {
    await expect(rows.nth(index)).toHaveAttribute('data-outcome', 'unknown');
    await expect(rows.nth(index).getByTestId('tool-outcome')).toContainText('outcome unknown');
  }
  await expect(page.getByTestId('turn-ending')).toHaveText(
    'Stopped. Calls marked “outcome unknown” had left for their devices: they may have acted.',
  );

  // What the page says the lamps are now is what the simulator itself reports.
  for (const id of ['lamp-1', 'lamp-2']) {
    const own = await sim.waitForState(id, (state) => state.on === true);
    const shown = page.locator(`[data-testid="device-state"][data-device-id="${id}"]`);
    await expect(shown).toHaveAttribute('data-readable', 'true');
    await expect(shown).toHaveText(
      `${id} is now ${own.on === true ? 'on' : 'off'}, brightness ${String(own.brightness)} %.`,
    );
  }
  // The expanded row says it too, beside the error and what it means.
  await rows.nth(0).getByTestId('tool-row-toggle').click();
  const details = rows.nth(0).getByTestId('tool-details');
  await expect(details.getByTestId('tool-details-outcome')).toHaveText(
    'outcome unknown — the request left but no answer came: the device may have acted',
  );
  await expect(details.getByTestId('tool-details-state')).toHaveText('lamp-1 is now on, brightness 100 %.');
  await expect(details.getByTestId('tool-details-args')).toHaveText('{\n  "device_id": "lamp-1",\n  "on": true\n}');
  expect(problems).toEqual([]);
  // The lamps' late answers to the stopped calls came before their read-back's: expected, not dropped frames.
  expect(host.stderr()).not.toContain('unmatched_response');
  // For the person comparing screenshots (issue 10's closing note).
  if (process.env.HOME_AGENT_SCREENS_DIR)
    await page.screenshot({
      path: `${process.env.HOME_AGENT_SCREENS_DIR}/light-1280-after-stop.png`,
      animations: 'disabled',
    });
});
