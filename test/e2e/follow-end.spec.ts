import { expect, openPage, test } from './helpers/harness.ts';

/**
 * Where the chat stands each time a drawn turn changes size while a 48-call batch is drawn and ends:
 * how far above the end of the messages the view is. Read by a ResizeObserver made
 * after the app's, so it runs after the app's own in the same frame, once layout is done and before
 * paint: what it reads is what that frame shows. (A task posted from a frame would also see rows
 * React added between frames, before any frame showed them.)
 */
const RECORD_DISTANCE_FROM_END = `(() => {
  const samples = [];
  const watched = new WeakSet();
  const observer = new ResizeObserver(() => {
    const element = document.querySelector('.chat-scroll');
    if (!element) return;
    samples.push({
      distance: element.scrollHeight - element.scrollTop - element.clientHeight,
      rows: document.querySelectorAll('[data-testid="tool-row"]').length,
    });
  });
  // Each turn drawn, as it is drawn.
  const watch = () => {
    for (const slot of document.querySelectorAll('[data-turn-id]')) {
      if (watched.has(slot)) continue;
      watched.add(slot);
      observer.observe(slot);
    }
  };
  const changes = new MutationObserver(watch);
  changes.observe(document.body, { childList: true, subtree: true });
  watch();
  window.__followEnd = { seen: () => samples.length, stop: () => { changes.disconnect(); observer.disconnect(); return samples; } };
})()`;

test('following the end, the view stands at the end in every frame while a large batch is drawn', async ({
  page,
  harness,
}) => {
  const folder = await harness.folder([
    { text: 'Ready when you are.' },
    {
      toolCalls: Array.from({ length: 48 }, (_, n) =>
        n % 2 === 0
          ? { name: 'thermometer__read', args: { device_id: 'thermometer-1' } }
          : { name: 'lamp__get', args: { device_id: 'lamp-1' } },
      ),
    },
    { text: 'All forty-eight checks ran.' },
  ]);
  const host = await harness.host({
    dataDir: folder.dataDir,
    scriptFile: folder.scriptFile,
    extraArgs: ['--sim-latency-ms', '150'],
  });
  const problems = await openPage(page, host);
  await page.evaluate(RECORD_DISTANCE_FROM_END);
  // A first turn without tools, seen in a frame before the batch's turn is asked for: when the batch
  // followed the person's message at once, a busy machine could draw its first frame with the rows.
  await page.getByTestId('composer-input').fill('are you there?');
  await page.getByTestId('composer-input').press('Enter');
  await expect(page.getByTestId('turn')).toHaveAttribute('data-status', 'done');
  await expect.poll(() => page.evaluate<number>('window.__followEnd.seen()')).toBeGreaterThan(0);
  await page.getByTestId('composer-input').fill('check everything');
  await page.getByTestId('composer-input').press('Enter');
  const batchTurn = page.getByTestId('turn').last();
  await expect(batchTurn).toHaveAttribute('data-status', 'done');
  await expect(batchTurn.getByText('All forty-eight checks ran.')).toBeVisible();
  const samples = await page.evaluate<{ distance: number; rows: number }[]>('window.__followEnd.stop()');

  // The batch's rows are drawn in one frame, those far from the view as their line of text, and drawn
  // whole as they come near, a few a frame, as tall as before (far-rows.spec.ts): what changes the
  // turn's size is the batch's first drawing, its end and the reply. The frames seen drew the rows
  // (else this would check nothing), and frames before them (the first turn) and after them.
  const counts = new Set(samples.map((sample) => sample.rows));
  expect(samples.filter((sample) => sample.rows === 48).length).toBeGreaterThanOrEqual(2);
  expect(samples.some((sample) => sample.rows === 0)).toBe(true);
  expect(Math.max(...counts)).toBe(48);
  // Every painted frame had the view at the end (a pixel of rounding at most).
  const away = samples.filter((sample) => sample.distance > 1);
  expect(away).toEqual([]);
  expect(problems).toEqual([]);
});
