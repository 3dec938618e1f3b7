import type { Locator } from '@playwright/test';
import { expect, openPage, send, test } from './helpers/harness.ts';

/** Every family, size, weight and style that text is drawn in under `root`: one font lookup each. */
async function textStyles(root: Locator): Promise<string[]> {
  return root.evaluateAll((roots) => {
    const styles = new Set<string>();
    for (const top of roots)
      for (const element of [top, ...top.querySelectorAll('*')]) {
        const ownText = [...element.childNodes].some(
          (node) => node.nodeType === Node.TEXT_NODE && (node.textContent ?? '').trim() !== '',
        );
        if (!ownText) continue;
        const style = getComputedStyle(element);
        if (style.display === 'none' || style.visibility === 'hidden') continue;
        styles.add(`${style.fontFamily} ${style.fontSize} ${style.fontWeight} ${style.fontStyle}`);
      }
    return [...styles].sort();
  });
}

test('the fonts a batch is drawn in are looked up when the app starts, not in the frame that draws the first batch', async ({
  page,
  harness,
}) => {
  const folder = await harness.folder([
    {
      toolCalls: [
        { name: 'thermometer__read', args: { device_id: 'thermometer-1' } },
        { name: 'teleport__now', args: { where: 'the moon' } },
      ],
    },
    { text: 'Read it; teleporting is not something this home can do.' },
  ]);
  const host = await harness.host({ dataDir: folder.dataDir, scriptFile: folder.scriptFile });
  const problems = await openPage(page, host);
  const warmup = page.locator('[data-font-warmup]');
  await expect(warmup).toHaveAttribute('aria-hidden', 'true');
  const warmed = await textStyles(warmup);
  await send(page, 'read the thermometer and teleport');
  await expect(page.getByTestId('tool-row')).toHaveCount(2);
  await expect(page.getByTestId('turn').last()).not.toHaveAttribute('data-status', 'running');
  const drawn = await textStyles(page.getByTestId('batch-panel'));
  expect(drawn.length, 'styles found in the batch panel').toBeGreaterThan(3);
  expect(drawn.filter((style) => !warmed.includes(style))).toEqual([]);
  expect(problems).toEqual([]);
});
