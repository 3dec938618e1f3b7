import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, openPage, send, test } from './helpers/harness.ts';

/**
 * Where the screenshots and the axe-core results go: `HOME_AGENT_SCREENS_DIR` (outside the
 * repository, for a person to compare), else the ignored test-results folder.
 */
const SCREENS_DIR = process.env.HOME_AGENT_SCREENS_DIR ?? path.resolve('test-results/screens');
const WIDTHS = [360, 800, 1440] as const;
const SCHEMES = ['light', 'dark'] as const;
const TABS = ['channels', 'devices', 'plugins', 'settings'] as const;

interface AxeEntry {
  scheme: string;
  width: number;
  view: string;
  violations: { id: string; impact: string | null | undefined; help: string; nodes: number }[];
  passes: number;
}

/** Runs axe-core (WCAG 2 A/AA and best practices) on the page as it is; returns what it found. */
async function audit(page: Page, where: Omit<AxeEntry, 'violations' | 'passes'>): Promise<AxeEntry> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  return {
    ...where,
    violations: results.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.length,
    })),
    passes: results.passes.length,
  };
}

/** A conversation that shows most of the window: a parallel batch, a second reply, a refusal, an expanded row. */
async function stageConversation(page: Page): Promise<void> {
  await send(page, 'turn on all lamps and show the temperature on the display');
  await send(page, 'turn off the kitchen lamp');
  await page.getByTestId('tool-row-toggle').first().click();
  await expect(page.getByTestId('tool-details')).toHaveCount(1);
}

test.describe.configure({ mode: 'serial' });

for (const scheme of SCHEMES) {
  test(`every view passes axe-core and is photographed at 360, 800 and 1440 px, ${scheme}`, async ({
    browser,
    harness,
  }) => {
    const folder = await harness.folder();
    const host = await harness.host({
      dataDir: folder.dataDir,
      provider: 'demo',
      extraArgs: ['--sim-latency-ms', '40'],
    });
    const context = await browser.newContext({
      colorScheme: scheme,
      viewport: { width: 1440, height: 900 },
      reducedMotion: 'reduce',
    });
    harness.onDispose(() => context.close());
    const page = await context.newPage();
    const problems = await openPage(page, host);
    await stageConversation(page);
    await mkdir(SCREENS_DIR, { recursive: true });
    const entries: AxeEntry[] = [];

    // Wide: every tab of the side area, side by side with the chat.
    for (const tab of TABS) {
      await page.locator(`[data-testid="side-tab"][data-tab="${tab}"]`).click();
      await expect(page.getByTestId('side-tab-panel')).toHaveAttribute('aria-labelledby', `side-tab-${tab}`);
      if (tab === 'devices') await expect(page.getByTestId('device-row')).toHaveCount(4);
      if (tab === 'settings') await expect(page.getByTestId('settings-form')).toHaveAttribute('data-status', 'loaded');
      entries.push(await audit(page, { scheme, width: 1440, view: `tab ${tab}` }));
    }
    await page.locator('[data-testid="side-tab"][data-tab="channels"]').click();
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: width === 360 ? 780 : 900 });
      await page.screenshot({ path: path.join(SCREENS_DIR, `${scheme}-${width}.png`), animations: 'disabled' });
      if (width !== 1440) entries.push(await audit(page, { scheme, width, view: 'chat' }));
    }
    // Narrow: the two drawers, each on its own.
    await page.setViewportSize({ width: 360, height: 780 });
    await page.getByTestId('open-conversations').click();
    await expect(page.getByTestId('close-conversations')).toBeFocused();
    await page.screenshot({ path: path.join(SCREENS_DIR, `${scheme}-360-conversations.png`), animations: 'disabled' });
    entries.push(await audit(page, { scheme, width: 360, view: 'conversations drawer' }));
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('open-conversations')).toBeFocused();
    await page.setViewportSize({ width: 800, height: 900 });
    await page.getByTestId('open-side-panel').click();
    for (const tab of TABS) {
      await page.locator(`[data-testid="side-tab"][data-tab="${tab}"]`).click();
      entries.push(await audit(page, { scheme, width: 800, view: `side drawer, tab ${tab}` }));
    }
    await page.screenshot({ path: path.join(SCREENS_DIR, `${scheme}-800-settings.png`), animations: 'disabled' });

    await writeFile(path.join(SCREENS_DIR, `axe-${scheme}.json`), `${JSON.stringify(entries, null, 2)}\n`);
    const serious = entries.flatMap((entry) =>
      entry.violations
        .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
        .map(
          (violation) =>
            `${entry.view} at ${entry.width}: ${violation.id} (${violation.help}, ${violation.nodes} nodes)`,
        ),
    );
    expect(serious).toEqual([]);
    expect(problems).toEqual([]);
  });
}

test('an open question for the person passes axe-core too, in both themes', async ({ browser, harness }) => {
  const host = await harness.relayHost();
  const entries: AxeEntry[] = [];
  let conversationId: string | null = null;
  for (const scheme of SCHEMES) {
    const context = await browser.newContext({
      colorScheme: scheme,
      viewport: { width: 800, height: 900 },
      reducedMotion: 'reduce',
    });
    harness.onDispose(() => context.close());
    const page = await context.newPage();
    if (conversationId === null) {
      await openPage(page, host);
      await page.getByTestId('composer-input').fill('Switch relay 2 on.');
      await page.getByTestId('composer-input').press('Enter');
      await expect.poll(() => new URL(page.url()).searchParams.get('conversation')).not.toBeNull();
      conversationId = new URL(page.url()).searchParams.get('conversation');
    } else {
      // The same question, opened from its address in the other theme.
      await page.goto(`${host.origin}?conversation=${conversationId}#token=${host.token}`);
    }
    await expect(page.getByTestId('approval-card')).toHaveCount(1);
    await page.screenshot({ path: path.join(SCREENS_DIR, `${scheme}-800-approval.png`), animations: 'disabled' });
    entries.push(await audit(page, { scheme, width: 800, view: 'approval question' }));
  }
  await mkdir(SCREENS_DIR, { recursive: true });
  await writeFile(path.join(SCREENS_DIR, 'axe-approval.json'), `${JSON.stringify(entries, null, 2)}\n`);
  const serious = entries.flatMap((entry) =>
    entry.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${entry.scheme}: ${violation.id} (${violation.help}, ${violation.nodes} nodes)`),
  );
  expect(serious).toEqual([]);
});
