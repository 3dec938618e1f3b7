import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, openPage, test } from './helpers/harness.ts';
import { createHost } from '../../host/app/create-host.ts';
import { startWebServer } from '../../host/front/web/web-server.ts';
import { EncryptedFileSecretStore } from '../../host/secrets/encrypted-file-secret-store.ts';
import type { StringCipher } from '../../host/secrets/secret-store.ts';
import { ScriptedModel } from '../../core/models/scripted/scripted-model.ts';

const renderer = fileURLToPath(new URL('../../dist/renderer', import.meta.url));
const PASSWORD = 'broker-pass-0123456789';

// Electron's safeStorage cannot run here: the stand-in cipher of the API-key tests plays the OS keychain
// (its output never holds the plain text), behind a host served to a real Chromium as the window's.
const cipher: StringCipher = {
  isAvailable: () => true,
  encrypt: (text) => Buffer.from([...Buffer.from(text, 'utf8')].map((byte) => byte ^ 0x5a)),
  decrypt: (data) => Buffer.from([...data].map((byte) => byte ^ 0x5a)).toString('utf8'),
};

test('where the front end keeps secrets, the broker password is kept in the keychain, never shown back, and removed', async ({
  page,
  harness,
}) => {
  const folder = await harness.folder();
  const file = path.join(folder.dataDir, 'secrets.json');
  const host = await createHost({
    dataDir: folder.dataDir,
    transport: 'web',
    model: new ScriptedModel({ replies: [] }),
    secrets: new EncryptedFileSecretStore({ file, cipher }),
    log: () => {},
    version: 'test',
  });
  harness.onDispose(() => host.dispose());
  const token = 'way-in-secret-token-0123456789';
  const server = await startWebServer({
    handlers: host.handlers,
    bus: host.events,
    staticDir: renderer,
    port: 0,
    token,
  });
  harness.onDispose(() => server.close());
  const problems = await openPage(page, {
    url: `${server.url}#token=${token}`,
    origin: new URL(server.url).origin,
    token,
    stop: async () => {},
    stderr: () => '',
    dataDir: folder.dataDir,
  });

  await page.locator('[data-testid="side-tab"][data-tab="settings"]').click();
  const field = page.getByLabel('Broker password', { exact: true });
  await expect(field).toHaveAttribute('type', 'password');
  await expect(page.getByTestId('way-in-secret-state')).toContainText('None kept.');
  await field.fill(PASSWORD);
  await field.press('Enter');
  await expect(page.getByTestId('way-in-secret-status')).toHaveText('Kept in the keychain; used from the next start.');
  await expect(page.getByTestId('way-in-secret-state')).toContainText('Kept in the keychain.');
  // Never shown back: the field is empty again, and the page holds no copy of it.
  await expect(field).toHaveValue('');
  expect(await page.content()).not.toContain(PASSWORD);
  // Enter kept the password and did not submit the settings form around it.
  await expect(page.getByTestId('settings-status')).toHaveText('');
  expect(readFileSync(file, 'utf8')).not.toContain(PASSWORD);

  await page.getByRole('button', { name: 'Remove broker password' }).click();
  await expect(page.getByTestId('way-in-secret-status')).toHaveText('Removed from the keychain.');
  await expect(page.getByTestId('way-in-secret-state')).toContainText('None kept.');
  await expect(page.getByRole('button', { name: 'Remove broker password' })).toHaveCount(0);
  expect(problems).toEqual([]);
});

test('home-agent serve keeps no secrets: Settings says to name the password variable instead', async ({
  page,
  harness,
}) => {
  const folder = await harness.folder();
  const host = await harness.host({ dataDir: folder.dataDir, provider: 'demo' });
  const problems = await openPage(page, host);
  await page.locator('[data-testid="side-tab"][data-tab="settings"]').click();
  await expect(page.getByTestId('way-in-secret-note')).toHaveText(
    'This front end keeps no secrets: put the broker password in an environment variable on this machine and name that variable in MQTT password variable.',
  );
  await expect(page.getByLabel('Broker password', { exact: true })).toHaveCount(0);
  expect(problems).toEqual([]);
});
