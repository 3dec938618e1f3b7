import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { makeHostFolder, type HostFolder } from './helpers/scripted-replies.ts';
import { startHost, type RunningHost } from './helpers/start-host.ts';
import { watchForPageProblems } from './helpers/watch-for-page-problems.ts';
import { startOAuthServer, type OAuthServer } from '../host/plugins/mcp/oauth/oauth-server.ts';

let folder: HostFolder | undefined;
let host: RunningHost | undefined;
let server: OAuthServer | undefined;

test.afterEach(async () => {
  await host?.stop();
  host = undefined;
  await folder?.remove();
  folder = undefined;
  await server?.close();
  server = undefined;
});

test('a server that asks for sign-in shows "Sign-in needed" with a Sign in link, and the link signs in', async ({
  page,
  context,
}) => {
  const problems = watchForPageProblems(page);
  server = await startOAuthServer();
  folder = await makeHostFolder([]);
  await mkdir(folder.dataDir, { recursive: true });
  await writeFile(
    path.join(folder.dataDir, 'mcp.json'),
    JSON.stringify({ mcpServers: { remote: { url: server.url } } }),
  );
  host = await startHost({ dataDir: folder.dataDir, scriptFile: folder.scriptFile });
  await page.goto(host.url);
  await expect(page.getByTestId('connection-status')).toHaveText('Connected');
  await page.locator('[data-testid="side-tab"][data-tab="plugins"]').click();
  const row = page.locator('[data-testid="plugin-row"][data-plugin="mcp-remote"]');
  await expect(row.getByTestId('mcp-status')).toHaveAttribute('data-status', 'sign-in');
  await expect(row.getByTestId('mcp-status')).toContainText('Sign-in needed');
  const link = row.getByRole('link', { name: 'Sign in' });
  await expect(link).toHaveAttribute('href', new RegExp(`^${server.url.replace(/\/mcp$/, '')}/authorize\\?`));
  // The authorization page signs in at once and sends the browser back to the host's loopback listener.
  const [signInPage] = await Promise.all([context.waitForEvent('page'), link.click()]);
  await expect(signInPage.locator('body')).toContainText('Signed in to mcp-remote');
  await expect(row.getByTestId('mcp-status')).toHaveAttribute('data-status', 'ready');
  await expect(row.getByRole('link', { name: 'Sign in' })).toHaveCount(0);
  expect(problems).toEqual([]);
});
