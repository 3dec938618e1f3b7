import { expect, openPage, send, test } from './helpers/harness.ts';

// A batch three screens tall: the rows far from the view are drawn as their line of text alone
// (renderer/views/use-near-rows.ts), as tall as a row drawn whole, and whole again when near.
const CALLS = 60;

test('in a batch taller than the window, rows far from the view are their line of text, whole when scrolled to or focused', async ({
  page,
  harness,
}) => {
  const folder = await harness.folder([
    {
      toolCalls: Array.from({ length: CALLS }, () => ({
        name: 'thermometer__read',
        args: { device_id: 'thermometer-1' },
      })),
    },
    { text: 'All read.' },
  ]);
  const host = await harness.host({ dataDir: folder.dataDir, scriptFile: folder.scriptFile });
  const problems = await openPage(page, host);
  await send(page, 'read the thermometer sixty times');
  const rows = page.getByTestId('tool-row');
  await expect(rows).toHaveCount(CALLS);
  await expect(page.locator('[data-testid="tool-row"][data-ok="true"]')).toHaveCount(CALLS);

  // The view followed the batch to its end: its last row is whole, its first far, saying what it is.
  const first = rows.first();
  await expect(rows.last().getByTestId('tool-row-toggle')).toBeVisible();
  await expect(first).toHaveAttribute('data-far', 'true');
  await expect(first).toHaveText(/^1 thermometer__read .* · done$/);
  // As tall as a row drawn whole, so nothing moves when it is drawn again.
  const farHeight = (await first.boundingBox())!.height;
  const wholeHeight = (await rows.last().boundingBox())!.height;
  expect(Math.abs(farHeight - wholeHeight), `far ${farHeight} px, whole ${wholeHeight} px`).toBeLessThanOrEqual(0.5);

  // Scrolled to, it is drawn whole.
  await first.scrollIntoViewIfNeeded();
  const toggle = first.getByTestId('tool-row-toggle');
  await expect(toggle).toBeVisible();
  await expect(first).not.toHaveAttribute('data-far');

  // Focused, it stays whole however far the view goes; its neighbour does not.
  await toggle.focus();
  await page.locator('.chat-scroll').evaluate((scroller) => scroller.scrollTo({ top: scroller.scrollHeight }));
  await expect(rows.nth(1)).toHaveAttribute('data-far', 'true');
  await expect(first).not.toHaveAttribute('data-far');
  await expect(toggle).toBeFocused();
  expect(problems).toEqual([]);
});
