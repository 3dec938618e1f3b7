import AxeBuilder from '@axe-core/playwright';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { callHost } from './helpers/call-host.ts';
import { makeHostFolder, type HostFolder } from './helpers/scripted-replies.ts';
import { startHost, type RunningHost } from './helpers/start-host.ts';
import { watchForPageProblems } from './helpers/watch-for-page-problems.ts';
import { probeEntry } from '../helpers/mcp/mcp-test-servers.ts';

let folder: HostFolder | undefined;
let host: RunningHost | undefined;

test.afterEach(async () => {
  await host?.stop();
  host = undefined;
  await folder?.remove();
  folder = undefined;
});

const tool = (name: string) => ({ name, description: `the ${name} tool`, inputSchema: { type: 'object' } });

test('a server’s question is the server’s own form with its defaults, the person’s values reach it, and its progress shows on the row', async ({
  page,
}) => {
  const problems = watchForPageProblems(page);
  folder = await makeHostFolder([
    { toolCalls: [{ name: 'mcp__probe__ask', args: { message: 'How should the lamps be set?' } }] },
    { toolCalls: [{ name: 'mcp__probe__progress', args: { steps: 3 } }] },
    { text: 'Done.' },
  ]);
  await mkdir(folder.dataDir, { recursive: true });
  const declarations = path.join(folder.dataDir, 'probe.json');
  await writeFile(declarations, JSON.stringify({ tools: [tool('ask'), tool('progress')] }));
  await writeFile(
    path.join(folder.dataDir, 'mcp.json'),
    JSON.stringify({ mcpServers: { probe: probeEntry(declarations) } }),
  );
  host = await startHost({ dataDir: folder.dataDir, scriptFile: folder.scriptFile });
  const running = host;
  // Its tools are offered from the first turn once it is ready.
  await expect
    .poll(async () => {
      const { plugins } = (await callHost(running, 'plugins/list')) as { plugins: { name: string; status?: string }[] };
      return plugins.find((plugin) => plugin.name === 'mcp-probe')?.status;
    })
    .toBe('ready');
  await page.goto(running.url);
  await expect(page.getByTestId('connection-status')).toHaveText('Connected');
  await page.getByTestId('composer-input').fill('set the lamps');
  await page.getByTestId('composer-input').press('Enter');
  // Its server is not trusted: each call is asked first, on an approval card (not the question).
  await page.getByRole('button', { name: 'Allow once' }).click();

  const question = page.getByRole('region', { name: 'Question from mcp-probe' });
  await expect(question.getByRole('heading', { name: 'mcp-probe asks' })).toBeVisible();
  await expect(question).toContainText('How should the lamps be set?');
  // Not an approval card: none of its words, none of its parts.
  await expect(question.getByRole('button', { name: /Allow|Deny/ })).toHaveCount(0);
  await expect(page.locator('.approval-card')).toHaveCount(0);
  // The probe's defaults (test/helpers/mcp/probe-mcp-server.mjs) are the form's first values.
  await expect(question.getByLabel('Room (required)')).toHaveValue('kitchen');
  await expect(question.getByRole('option', { name: 'Kitchen' })).toHaveCount(1);
  await expect(question.getByLabel('Brightness (required)')).toHaveValue('40');
  await expect(question.getByLabel('Fade')).toBeChecked();
  await expect(question.getByLabel('Note')).toHaveValue('evening');
  await expect(question.getByRole('checkbox', { name: 'desk' })).toBeChecked();
  await expect(question.getByRole('checkbox', { name: 'floor' })).not.toBeChecked();

  const axe = await new AxeBuilder({ page }).include('[data-testid="elicitation"]').analyze();
  expect(axe.violations.map((violation) => `${violation.id}: ${violation.impact}`)).toEqual([]);

  await question.getByLabel('Brightness (required)').fill('70');
  await question.getByRole('checkbox', { name: 'floor' }).check();
  await question.getByRole('button', { name: 'Send' }).click();
  await expect(question).toHaveCount(0);

  // What the server answered is what it received: the person's values, the defaults of the rest.
  const rows = page.getByTestId('tool-row');
  const asked = rows.filter({ hasText: 'mcp__probe__ask' });
  await expect(asked).toHaveAttribute('data-status', 'done');
  await asked.getByTestId('tool-row-toggle').click();
  const result = asked.getByTestId('tool-details');
  // The probe's answer is its text: the JSON it received, shown as a string.
  const received = {
    action: 'accept',
    content: { room: 'kitchen', brightness: 70, fade: true, note: 'evening', lamps: ['desk', 'floor'] },
  };
  await expect(result).toContainText(JSON.stringify(JSON.stringify(received)));

  // The next call reports its progress, then waits until it is stopped.
  const progressing = rows.filter({ hasText: 'mcp__probe__progress' });
  await progressing.getByRole('button', { name: 'Allow once' }).click();
  await expect(progressing.getByTestId('tool-progress')).toHaveText('step 3 of 3 — 3/3');
  await page.getByTestId('stop-button').click();
  await expect(page.getByTestId('turn')).toHaveAttribute('data-status', 'aborted');
  expect(problems).toEqual([]);
});
