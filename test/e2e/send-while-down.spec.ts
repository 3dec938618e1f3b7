import { expect, openPage, send, test } from './helpers/harness.ts';

test('a message sent while the host is down stays in the box, and the window says it was not sent and what to do', async ({
  page,
  harness,
}) => {
  const folder = await harness.folder([{ text: 'Hello.' }]);
  const host = await harness.host({ dataDir: folder.dataDir, scriptFile: folder.scriptFile });
  const problems = await openPage(page, host);
  await send(page, 'hi');
  const heading = await page.getByTestId('chat-title').innerText();
  // A new conversation, then the host goes away.
  await page.getByTestId('new-conversation-button').click();
  const emptyHeading = await page.getByTestId('chat-title').innerText();
  await host.stop();
  await expect(page.getByTestId('connection-status')).not.toHaveText('Connected');

  await page.getByTestId('composer-input').fill('turn on the lamps');
  await page.getByTestId('send-button').click();
  await expect(page.getByTestId('send-failure')).toHaveText(
    'Not sent: Home Agent cannot be reached (it may have stopped or be restarting). Your message is still in the box: send it again once the window says Connected.',
  );
  await expect(page.getByTestId('composer-input')).toHaveValue('turn on the lamps');
  // The window stays where it was: no conversation began.
  await expect(page.getByTestId('chat-title')).toHaveText(emptyHeading);
  expect(emptyHeading).not.toBe(heading);
  await expect(page.getByTestId('turn')).toHaveCount(0);
  // The failed requests are the only trouble the page logged.
  expect(problems.filter((problem) => !/Failed to fetch|ERR_CONNECTION_REFUSED|WebSocket/.test(problem))).toEqual([]);
});
