import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './helpers/home-fixture.ts';
import { callHost } from './helpers/call-host.ts';

// Rooms end to end: a device paired into a room at the terminal, another in the window, a move in
// the window; the window's groups, the API and `devices list --json` say the same.

const byId = (a: [string, unknown], b: [string, unknown]): number => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

function card(page: Page, deviceId: string) {
  return page.locator(`[data-testid="device-row"][data-device-id="${deviceId}"]`);
}

function group(page: Page, room: string) {
  return page.locator(`[data-testid="room-group"][data-room="${room}"]`);
}

/** Every axe violation on the Devices tab (the tags of screens-and-axe.spec.ts), as lines. */
async function axeViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .include('#side-tab-panel')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  return result.violations.map(
    (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
  );
}

async function roomsByCli(home: { cli(args: string[]): Promise<string> }): Promise<[string, string][]> {
  const listed = JSON.parse(await home.cli(['devices', 'list', '--json'])) as {
    identity: { id: string };
    room: string;
  }[];
  return listed.map((device): [string, string] => [device.identity.id, device.room]).sort(byId);
}

async function roomsByApi(host: Parameters<typeof callHost>[0]): Promise<[string, string | undefined][]> {
  const { devices } = (await callHost(host, 'devices/list')) as { devices: { id: string; room?: string }[] };
  return devices.map((device): [string, string | undefined] => [device.id, device.room]).sort(byId);
}

test('puts devices in rooms in the window and at the terminal, the Devices tab groups them, the API and the CLI agree', async ({
  page,
  home,
}) => {
  const sim = await home.sim({ kinds: ['lamp', 'lamp'] });
  const [first, second] = sim.devices;
  const host = await home.serve();
  await home.cli(['devices', 'pair', second!.path, '--yes', '--alias', 'Counter lamp', '--room', 'Kitchen']);
  await home.open(page, host);
  await page.getByRole('tab', { name: 'Devices' }).click();
  await expect(group(page, 'Kitchen')).toContainText('Kitchen (1)');

  // Pairing in the window, the room typed in another case: the home's spelling is kept.
  await page.getByTestId('add-device').click();
  await page.getByRole('radio', { name: first!.path }).check();
  await page.getByTestId('probe-device').click();
  await page.getByTestId('device-alias-input').fill('Desk lamp');
  await page.getByLabel('Room', { exact: true }).fill('kitchen');
  expect(await axeViolations(page)).toEqual([]);
  await page.getByTestId('pair-device').click();
  await expect(page.getByTestId('paired-message')).toContainText('Paired Desk lamp.');
  await page.getByTestId('close-add-device').click();
  await expect(group(page, 'Kitchen').getByTestId('room-title')).toHaveText('Kitchen (2)');
  await expect(group(page, 'Kitchen').locator(card(page, 'lamp-1'))).toHaveCount(1);
  expect(await roomsByApi(host)).toEqual([
    ['lamp-1', 'Kitchen'],
    ['lamp-2', 'Kitchen'],
  ]);

  // A move on the card: its own group, and the list named by its room.
  await card(page, 'lamp-2').getByTestId('device-room-button').click();
  const field = card(page, 'lamp-2').getByLabel('Room', { exact: true });
  await expect(field).toHaveValue('Kitchen');
  await field.fill('Hall');
  expect(await axeViolations(page)).toEqual([]);
  await card(page, 'lamp-2').getByTestId('room-save').click();
  await expect(page.getByRole('list', { name: 'Hall (1)' }).locator(card(page, 'lamp-2'))).toHaveCount(1);
  await expect(group(page, 'Kitchen').getByTestId('room-title')).toHaveText('Kitchen (1)');
  expect(await axeViolations(page)).toEqual([]);
  expect(await roomsByApi(host)).toEqual([
    ['lamp-1', 'Kitchen'],
    ['lamp-2', 'Hall'],
  ]);
  expect(await roomsByCli(home)).toEqual([
    ['lamp-1', 'Kitchen'],
    ['lamp-2', 'Hall'],
  ]);

  // Taken out of its room at the terminal: the window shows it in no room, live.
  await home.cli(['devices', 'room', 'lamp-1', '--none']);
  await expect(group(page, '').getByTestId('room-title')).toHaveText('No room (1)');
  await expect(group(page, '').locator(card(page, 'lamp-1'))).toHaveCount(1);
  await home.screenshot(page, 'rooms-grouped');
});
