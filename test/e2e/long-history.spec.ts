import { expect, openPage, test } from './helpers/harness.ts';
import { seedHistory } from './helpers/seed-history.ts';

/** Three pages of the journal (the window reads 40 turns at a time). */
const TURNS = 100;
/** Less than a seeded turn's height, so one step never passes a whole turn. */
const STEP_PX = 150;

// Scrolls the chat up one step, lets two frames pass (the scroll event, then what it drew), and
// says which turn is at the top of the view and how many turns the page holds.
const STEP_UP = `(async () => {
  const scroller = document.querySelector('.chat-scroll');
  scroller.scrollTop = Math.max(0, scroller.scrollTop - ${STEP_PX});
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  const box = scroller.getBoundingClientRect();
  const slot = document.elementFromPoint(box.left + box.width / 2, box.top + 24)?.closest('.chat-turn-slot');
  return {
    top: slot ? Number(slot.dataset.turnId.replace('turn-', '')) : null,
    scrollTop: scroller.scrollTop,
    drawn: document.querySelectorAll('[data-testid="turn"]').length,
  };
})()`;

test('a long conversation opens at its newest turn, draws only the turns near the view, and scrolling up to its first turn never jumps as older pages are added above', async ({
  page,
  harness,
}) => {
  const folder = await harness.folder([{ text: 'Nothing to do.' }]);
  seedHistory(folder.dataDir, TURNS);
  const host = await harness.host({ dataDir: folder.dataDir, scriptFile: folder.scriptFile });
  const problems = await openPage(page, host);
  await page.getByTestId('conversation-item').first().click();
  await expect(page.getByTestId('turn').filter({ hasText: `Turn ${TURNS - 1}, lamps` })).toBeVisible();
  await expect(page.getByTestId('chat-older')).toBeVisible();

  const tops: number[] = [];
  while (tops.at(-1) !== 0) {
    const step = await page.evaluate<{ top: number | null; scrollTop: number; drawn: number }>(STEP_UP);
    expect(step.top, `a turn is at the top of the view after ${tops.length} steps`).not.toBeNull();
    const previous = tops.at(-1);
    // Scrolling up shows the same turn or the one before it: never a later one, never a leap.
    if (previous !== undefined) expect(previous - step.top!).toBeGreaterThanOrEqual(0);
    if (previous !== undefined) expect(previous - step.top!).toBeLessThanOrEqual(1);
    expect(step.drawn).toBeLessThan(20);
    tops.push(step.top!);
    // At the top with an older page on its way: wait for it, rather than for a time.
    if (step.scrollTop === 0 && step.top !== 0)
      await expect(page.getByTestId('chat-older')).not.toHaveText('Loading older messages…');
  }
  // It began at the newest turns and passed every turn on the way up (one at a time), reading all pages.
  expect(tops[0]).toBeGreaterThanOrEqual(TURNS - 2);
  await expect(page.getByTestId('chat-older')).toHaveCount(0);
  expect(problems).toEqual([]);
});
