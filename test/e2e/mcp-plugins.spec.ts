import AxeBuilder from '@axe-core/playwright';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { callHost } from './helpers/call-host.ts';
import { makeHostFolder, type HostFolder } from './helpers/scripted-replies.ts';
import { startHost, type RunningHost } from './helpers/start-host.ts';
import { watchForPageProblems } from './helpers/watch-for-page-problems.ts';
import { everythingStdioEntry } from '../helpers/mcp/mcp-test-servers.ts';
import { freePort } from '../helpers/free-port.ts';

let folder: HostFolder | undefined;
let host: RunningHost | undefined;

test.afterEach(async () => {
  await host?.stop();
  host = undefined;
  await folder?.remove();
  folder = undefined;
});

const LITERAL_SECRET = 'Bearer literal-secret-1234';

/**
 * A host whose mcp.json has server-everything over stdio and a Streamable HTTP server nobody
 * answers at, with a token written into the file; its Plugins tab open.
 */
async function openPluginsTab(page: Page): Promise<string[]> {
  const problems = watchForPageProblems(page);
  folder = await makeHostFolder([]);
  await mkdir(folder.dataDir, { recursive: true });
  await writeFile(
    path.join(folder.dataDir, 'mcp.json'),
    JSON.stringify({
      mcpServers: {
        everything: everythingStdioEntry(),
        // A loopback port nobody listens on: it fails at once.
        ha: { url: `http://127.0.0.1:${await freePort()}/api/mcp`, headers: { Authorization: LITERAL_SECRET } },
      },
    }),
  );
  host = await startHost({ dataDir: folder.dataDir, scriptFile: folder.scriptFile });
  await page.goto(host.url);
  await expect(page.getByTestId('connection-status')).toHaveText('Connected');
  await page.locator('[data-testid="side-tab"][data-tab="plugins"]').click();
  return problems;
}

const row = (page: Page, plugin: string) => page.locator(`[data-testid="plugin-row"][data-plugin="${plugin}"]`);

test('the Plugins tab shows each MCP server’s state, its problems, and trusts one after asking', async ({ page }) => {
  const problems = await openPluginsTab(page);
  const everything = row(page, 'mcp-everything');
  // Its state arrives live (plugins/changed): connecting, then ready.
  await expect(everything.getByTestId('mcp-status')).toHaveAttribute('data-status', 'ready');
  await expect(everything.locator('.tool-chip', { hasText: 'mcp__everything__echo' })).toBeVisible();
  const ha = row(page, 'mcp-ha');
  await expect(ha.getByTestId('mcp-status')).toHaveAttribute('data-status', 'failed');
  await expect(ha.getByTestId('mcp-status')).toContainText('could not reach the server (ECONNREFUSED)');
  await expect(ha.getByTestId('mcp-warnings')).toContainText(
    'headers.Authorization holds a secret written into the config',
  );
  await expect(page.locator('body')).not.toContainText('literal-secret-1234');

  await expect(everything.getByTestId('mcp-trusted')).toHaveAttribute('data-trusted', 'false');
  await everything.getByRole('button', { name: 'Trust…' }).click();
  const question = everything.getByTestId('mcp-trust-question');
  await expect(question).toContainText('Trust mcp-everything?');
  // The safe answer has the focus: Escape keeps things as they were.
  await page.keyboard.press('Escape');
  await expect(question).toHaveCount(0);
  await expect(everything.getByRole('button', { name: 'Trust…' })).toBeFocused();
  await page.keyboard.press('Enter');
  await everything.getByTestId('mcp-trust-confirm').click();
  await expect(everything.getByTestId('mcp-trusted')).toHaveAttribute('data-trusted', 'true');
  const { plugins } = (await callHost(host as RunningHost, 'plugins/list')) as {
    plugins: { name: string; trusted?: boolean }[];
  };
  expect(plugins.find((plugin) => plugin.name === 'mcp-everything')?.trusted).toBe(true);
  await everything.getByRole('button', { name: 'Stop trusting' }).click();
  await expect(everything.getByTestId('mcp-trusted')).toHaveAttribute('data-trusted', 'false');

  const result = await new AxeBuilder({ page }).include('#side-tab-panel').analyze();
  expect(
    result.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`),
  ).toEqual([]);
  expect(problems).toEqual([]);
});

test('the Plugins tab follows mcp.json: it says edits apply without a restart, and shows a server removed, a broken file', async ({
  page,
}) => {
  const problems = await openPluginsTab(page);
  await expect(page.getByTestId('mcp-config-followed')).toContainText(
    'edits to it apply without a restart, between turns',
  );
  await expect(row(page, 'mcp-everything').getByTestId('mcp-status')).toHaveAttribute('data-status', 'ready');
  const file = path.join((folder as HostFolder).dataDir, 'mcp.json');
  // Removed from the file: its row goes, live.
  await writeFile(file, JSON.stringify({ mcpServers: { everything: everythingStdioEntry() } }));
  await expect(row(page, 'mcp-ha')).toHaveCount(0);
  // A broken file keeps the server and says why.
  await writeFile(file, '{"mcpServers": ');
  await expect(page.getByTestId('mcp-config-problems')).toContainText(
    'the MCP servers it gave before are kept until it is fixed',
  );
  await expect(row(page, 'mcp-everything').getByTestId('mcp-status')).toHaveAttribute('data-status', 'ready');
  expect(problems).toEqual([]);
});
