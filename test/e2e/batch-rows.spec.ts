import { callHost } from './helpers/call-host.ts';
import { expect, openPage, send, test } from './helpers/harness.ts';
import { walkingSkeletonReplies } from './helpers/scripted-replies.ts';
import { SCREENFUL_OF_ROWS } from '../../renderer/views/batch-panel.tsx';
import { colourPixels } from './helpers/colour-pixels.ts';
import { sendRelayQuestionBatch } from './helpers/relay-question-batch.ts';

test('a row expands to its full arguments and result, or its error with the hint, and the bars have a legend', async ({
  page,
  harness,
}) => {
  const longText = 'A very long text for the display that a one-line summary of the arguments has to cut short';
  const folder = await harness.folder([
    {
      toolCalls: [
        { name: 'thermometer__read', args: { device_id: 'thermometer-1' } },
        { name: 'teleport__now', args: { where: 'the moon' } },
        { name: 'output_send__chat', args: { text: longText } },
      ],
    },
    { text: 'Done what could be done.' },
  ]);
  const host = await harness.host({
    dataDir: folder.dataDir,
    scriptFile: folder.scriptFile,
    extraArgs: ['--sim-latency-ms', '20'],
  });
  const problems = await openPage(page, host);
  await send(page, 'read the thermometer, teleport, and say something long');
  const rows = page.getByTestId('tool-row');
  await expect(rows).toHaveCount(3);

  // Collapsed, the long argument is cut; expanded, it is all there.
  await expect(rows.nth(2).locator('.tool-args')).toContainText('…');
  await rows.nth(2).getByTestId('tool-row-toggle').click();
  await expect(rows.nth(2).getByTestId('tool-row-toggle')).toHaveAttribute('aria-expanded', 'true');
  await expect(rows.nth(2).getByTestId('tool-details-args')).toHaveText(`{\n  "text": "${longText}"\n}`);

  await rows.nth(0).getByTestId('tool-row-toggle').click();
  await expect(rows.nth(0).getByTestId('tool-details-outcome')).toHaveText('done — it ran and succeeded');
  await expect(rows.nth(0).getByTestId('tool-details-result')).toHaveText(
    '{\n  "device_id": "thermometer-1",\n  "result": {\n    "celsius": 21.5,\n    "humidity": 45\n  }\n}',
  );

  await rows.nth(1).getByTestId('tool-row-toggle').click();
  await expect(rows.nth(1)).toHaveAttribute('data-outcome', 'not_sent');
  await expect(rows.nth(1).getByTestId('tool-outcome')).toContainText('not sent · not_found');
  await expect(rows.nth(1).getByTestId('tool-details-error')).toHaveText(
    "not_found: There is no tool named 'teleport__now'.",
  );
  await expect(rows.nth(1).getByTestId('tool-details-hint')).toHaveText(
    'Call system_list_tools to see the tools that exist; do not retry this name.',
  );
  await expect(rows.nth(1).getByTestId('tool-details-outcome')).toHaveText(
    'not sent — nothing reached the device: it did not act',
  );
  // Collapsing hides the details again, from the keyboard too.
  await rows.nth(1).getByTestId('tool-row-toggle').press('Enter');
  await expect(rows.nth(1).getByTestId('tool-details')).toHaveCount(0);

  await expect(page.getByTestId('batch-legend')).toHaveText(
    /queued.*waiting for you.*running, then ran.*failed.*not sent.*outcome unknown/,
  );
  expect(problems).toEqual([]);
});

test('the reason names the cap that ran parallel-safe calls one after another', async ({ page, harness }) => {
  const folder = await harness.folder(walkingSkeletonReplies);
  const host = await harness.host({
    dataDir: folder.dataDir,
    scriptFile: folder.scriptFile,
    extraArgs: ['--sim-latency-ms', '20', '--concurrency-cap', '1'],
  });
  await openPage(page, host);
  await send(page, 'Turn on both lamps and read the temperature.');
  await expect(page.getByTestId('batch-mode')).toHaveText('parallel');
  await expect(page.getByTestId('batch-reason')).toHaveText(
    'all 3 calls are parallel-safe, but the cap of 1 parallel call ran them one after another',
  );
});

test('the time a call waited for the person is shown apart from its run time', async ({ page, harness }) => {
  const host = await harness.relayHost();
  await openPage(page, host);
  await page.getByTestId('composer-input').fill('Switch relay 2 on.');
  await page.getByTestId('composer-input').press('Enter');
  const row = page.locator('[data-testid="tool-row"][data-tool-name="relay__set"]');
  await expect(row).toHaveAttribute('data-approval', 'waiting');
  // Answered through the API (the card is another view's): the row must tell the wait from the run.
  const approvalId = await row.getAttribute('data-approval-id');
  expect(await callHost(host, 'approval/answer', { approvalId, approved: true })).toEqual({ accepted: true });
  await expect(page.getByTestId('turn')).toHaveAttribute('data-status', 'done');
  await row.getByTestId('tool-row-toggle').click();
  await expect(row.getByTestId('tool-details-time')).toHaveText(
    /^queued \d+ ms · ran [\d.]+ m?s · waited [\d.]+ m?s for you$/,
  );
  await expect(row.getByTestId('timing-approval')).toHaveCount(1);
  // The journal's own numbers: the wait is part of runMs and is subtracted for "ran".
  const { events } = (await callHost(host, 'conversations/events', {
    conversationId: new URL(page.url()).searchParams.get('conversation'),
  })) as { events: { type: string; runMs?: number; approvalMs?: number }[] };
  const end = events.find((event) => event.type === 'tool/end')!;
  expect(end.approvalMs).toBeGreaterThan(0);
  expect(end.runMs).toBeGreaterThanOrEqual(end.approvalMs!);
});

test('at 360 px a call’s name and its outcome never touch: a long name breaks, the outcome keeps its room', async ({
  page,
  harness,
}) => {
  const folder = await harness.folder([
    {
      toolCalls: [
        { name: 'output_send__display_1', args: { text: 'Temperature 21.5 °C' } },
        { name: 'thermometer__read', args: { device_id: 'thermometer-1' } },
        { name: 'lamp__set', args: { device_id: 'lamp-1', on: true } },
      ],
    },
    { text: 'Done.' },
  ]);
  const host = await harness.host({
    dataDir: folder.dataDir,
    scriptFile: folder.scriptFile,
    extraArgs: ['--sim-latency-ms', '20'],
  });
  await page.setViewportSize({ width: 360, height: 780 });
  const problems = await openPage(page, host);
  await send(page, 'show the temperature');
  const rows = page.getByTestId('tool-row');
  await expect(rows).toHaveCount(3);
  await expect(page.getByTestId('tool-outcome')).toHaveCount(3);
  for (let index = 0; index < 3; index += 1) {
    const name = (await rows.nth(index).locator('.tool-name').boundingBox())!;
    const outcome = (await rows.nth(index).getByTestId('tool-outcome').boundingBox())!;
    const sameLine = name.y < outcome.y + outcome.height && outcome.y < name.y + name.height;
    // On one line, a clear gap between them; else the outcome is on a line of its own below.
    if (sameLine) expect(outcome.x - (name.x + name.width), `row ${index + 1}`).toBeGreaterThanOrEqual(6);
    else expect(outcome.y, `row ${index + 1}`).toBeGreaterThanOrEqual(name.y + name.height);
    // Nothing runs past the row.
    const row = (await rows.nth(index).boundingBox())!;
    expect(name.x + name.width, `row ${index + 1}`).toBeLessThanOrEqual(row.x + row.width + 0.5);
  }
  expect(problems).toEqual([]);
});

test('a focused row’s toggle shows its whole focus ring: what keeps rows off screen cheap does not cut it', async ({
  page,
  harness,
}) => {
  // More rows than a screen holds (SCREENFUL_OF_ROWS), so the rows off screen are not drawn.
  const folder = await harness.folder([
    {
      toolCalls: Array.from({ length: SCREENFUL_OF_ROWS + 4 }, () => ({
        name: 'thermometer__read',
        args: { device_id: 'thermometer-1' },
      })),
    },
    { text: 'Read.' },
  ]);
  const host = await harness.host({ dataDir: folder.dataDir, scriptFile: folder.scriptFile });
  const problems = await openPage(page, host);
  await send(page, 'read the thermometer');
  await expect(page.getByTestId('tool-row')).toHaveCount(SCREENFUL_OF_ROWS + 4);
  await expect(page.getByTestId('batch-panel')).toHaveClass(/batch-panel-many/);
  // The last row: the view follows the batch to its end, so it is on screen.
  const row = page.getByTestId('tool-row').last();
  const toggle = row.getByTestId('tool-row-toggle');
  // From the keyboard, so the ring is the one a keyboard user sees (:focus-visible).
  await toggle.press('Enter');
  await toggle.press('Enter');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  expect(await toggle.evaluate((element) => element.matches(':focus-visible'))).toBe(true);
  const ring = await toggle.evaluate((element) => getComputedStyle(element).outlineColor);
  // The ring is 2px wide, 2px out from the button, which starts at the row's left edge: the 4px
  // left of the row hold it, unless the row clips what it paints to its own box.
  const box = (await row.boundingBox())!;
  const ringPixels = (await colourPixels(page, { x: box.x - 4, y: box.y, width: 4, height: box.height }, ring)).count;
  // The ring's left side runs the height of the button: many pixels, not none.
  expect(ringPixels).toBeGreaterThan(10);
  expect(problems).toEqual([]);
});

// Rows are contained (laid out alone, and off screen not drawn in a large batch), which makes each
// a stacking context: an open row must not be, or the curtain drawn after the rows covers it.
for (const { others, size } of [
  { others: SCREENFUL_OF_ROWS + 3, size: 'more rows than a screen holds' },
  { others: 2, size: 'a few rows' },
]) {
  test(`in a live batch of ${size}, a question for the person and opened details are drawn above the curtain`, async ({
    page,
    harness,
  }) => {
    const { card, problems } = await sendRelayQuestionBatch(page, harness, { others, reply: 'Done.' });
    if (others > SCREENFUL_OF_ROWS) await expect(page.getByTestId('batch-panel')).toHaveClass(/batch-panel-many/);
    else await expect(page.getByTestId('batch-panel')).not.toHaveClass(/batch-panel-many/);
    await expect(page.getByTestId('timing-curtain')).toHaveCount(1);
    // The other calls have ended; the batch waits for the person alone.
    await expect(page.locator('[data-testid="tool-row"][data-status="done"]')).toHaveCount(others);
    await card.scrollIntoViewIfNeeded();
    // The card's right edge lies in the bars' column, where the curtain hides what is past now: its
    // border is seen there only if the card is drawn above the curtain.
    const border = await card.evaluate((element) => getComputedStyle(element).borderRightColor);
    const box = (await card.boundingBox())!;
    // Border-coloured pixels per line of a 3px strip at its right edge: about one where the border shows.
    const edge = await colourPixels(
      page,
      { x: box.x + box.width - 3, y: box.y + 8, width: 3, height: box.height - 16 },
      border,
    );
    const borderShare = edge.count / edge.height;
    expect(borderShare, "the card's right border").toBeGreaterThan(0.8);
    // A row opened to its details while the batch is live: the details span the bars' column too.
    const second = page.getByTestId('tool-row').nth(1);
    await second.getByTestId('tool-row-toggle').click();
    const details = second.getByTestId('tool-details');
    const shade = await details.evaluate((element) => getComputedStyle(element).backgroundColor);
    const detailsBox = (await details.boundingBox())!;
    const detailsEdge = await colourPixels(
      page,
      { x: detailsBox.x + detailsBox.width - 8, y: detailsBox.y + 4, width: 4, height: detailsBox.height - 8 },
      shade,
    );
    expect(
      detailsEdge.count / (detailsEdge.width * detailsEdge.height),
      'the details, at their right end',
    ).toBeGreaterThan(0.5);
    await expect(page.getByTestId('timing-curtain')).toHaveCount(1);
    await card.getByTestId('deny-button').click();
    await expect(page.getByTestId('turn').last()).not.toHaveAttribute('data-status', 'running');
    expect(problems).toEqual([]);
  });
}
