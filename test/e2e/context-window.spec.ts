import { expect, openPage, send, test } from './helpers/harness.ts';

/** Six answers long enough that a 2,600-token window holds only the last few turns. */
const LONG_ANSWERS = Array.from({ length: 6 }, (_, turn) => ({ text: `Answer ${turn + 1}: ${'a'.repeat(700)}` }));

test('the conversation says how full the model’s window is and how many earlier turns were not sent, also after a reload', async ({
  page,
  harness,
}) => {
  const folder = await harness.folder(LONG_ANSWERS);
  const host = await harness.host({
    dataDir: folder.dataDir,
    scriptFile: folder.scriptFile,
    sim: false,
    extraArgs: ['--context-tokens', '2600'],
  });
  const problems = await openPage(page, host);
  const line = page.getByTestId('context-line');
  await send(page, 'Question 1');
  await expect(line).toHaveText(/^Context: [\d,]+ of 2,600 tokens$/);
  for (let turn = 2; turn <= 6; turn += 1) await send(page, `Question ${turn}`);
  await expect(page.getByTestId('turn').last()).toHaveAttribute('data-status', 'done');
  await expect(line).toHaveText(/^Context: [\d,]+ of 2,600 tokens · [1-5] earlier turns? not sent$/);
  const shown = await line.textContent();
  // Every turn is still in the conversation: only the model was not sent them (the chat draws the
  // turns near the view, so the first is looked for at the top).
  await page.getByRole('region', { name: 'Messages' }).evaluate((region) => region.scrollTo(0, 0));
  await expect(page.getByTestId('turn').filter({ hasText: 'Question 1' })).toHaveCount(1);
  await page.reload();
  await expect(page.getByTestId('connection-status')).toHaveText('Connected');
  await expect(line).toHaveText(shown!);
  expect(problems).toEqual([]);
});

test('the Plugins tab warns when the tool declarations take over half the window, naming the largest plugins', async ({
  page,
  harness,
}) => {
  const folder = await harness.folder([]);
  const host = await harness.host({
    dataDir: folder.dataDir,
    scriptFile: folder.scriptFile,
    sim: false,
    extraArgs: ['--context-tokens', '1400'],
  });
  const problems = await openPage(page, host);
  await page.locator('[data-testid="side-tab"][data-tab="plugins"]').click();
  const warning = page.getByTestId('plugins-context-warning');
  await expect(warning).toContainText('take about');
  await expect(warning).toContainText('of the 1,400 tokens');
  await expect(warning).toContainText(/The largest: sequences \([\d,]+\), channels \([\d,]+\), system \([\d,]+\)\./);
  // Disabling the largest brings them under half: the warning goes.
  await page.locator('[data-testid="plugin-toggle"][data-plugin="sequences"]').click();
  await expect(page.locator('[data-testid="plugin-row"][data-plugin="sequences"]')).toHaveAttribute(
    'data-enabled',
    'false',
  );
  await expect(warning).toHaveCount(0);
  expect(problems).toEqual([]);
});
