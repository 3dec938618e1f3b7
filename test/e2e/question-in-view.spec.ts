import type { Page } from '@playwright/test';
import { expect, test, type Harness } from './helpers/harness.ts';
import { sendRelayQuestionBatch } from './helpers/relay-question-batch.ts';

// A live batch taller than the window, whose first call asks the person first: the rows below the
// question keep being drawn and ending while it waits, and the view follows new output.
const OTHERS = 40;

async function askInLongBatch(page: Page, harness: Harness) {
  const { card, problems } = await sendRelayQuestionBatch(page, harness, {
    others: OTHERS,
    reply: 'Relay 2 is handled and the channels are listed.',
  });
  // Every row drawn, and every call but the question's ended: nothing more moves until the answer.
  await expect(page.getByTestId('tool-row')).toHaveCount(OTHERS + 1);
  await expect(page.locator('[data-testid="tool-row"][data-status="done"]')).toHaveCount(OTHERS);
  return { card, problems };
}

test('a question for the person stays in sight while the rest of its batch is drawn and ends below it', async ({
  page,
  harness,
}) => {
  const { card, problems } = await askInLongBatch(page, harness);
  await expect(card).toBeInViewport({ ratio: 1 });
  await card.getByTestId('approve-button').click();
  // Answered, the view follows new output to the end again.
  const reply = page.getByTestId('chat-message').filter({ hasText: 'Relay 2 is handled' });
  await expect(reply).toBeInViewport();
  expect(problems).toEqual([]);
});

test('a person who scrolls past the question is not brought back to it by later output', async ({ page, harness }) => {
  const { card, problems } = await askInLongBatch(page, harness);
  await expect(card).toBeInViewport({ ratio: 1 });
  const scroller = page.locator('.chat-scroll');
  const box = (await scroller.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const last = page.getByTestId('tool-row').last();
  while (!(await scroller.evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight < 2)))
    await page.mouse.wheel(0, 600);
  await expect(card).not.toBeInViewport();
  // Later output while the question still waits: the last row opened to its details.
  await last.getByTestId('tool-row-toggle').click();
  await expect(last.getByTestId('tool-details')).toBeInViewport();
  await expect(card).not.toBeInViewport();
  await card.getByTestId('deny-button').click();
  await expect(page.getByTestId('turn').last()).not.toHaveAttribute('data-status', 'running');
  expect(problems).toEqual([]);
});
