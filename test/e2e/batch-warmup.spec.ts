import { BATCH_WARMUP_MEASURE } from '../../renderer/views/batch-warmup-measure.ts';
import { callHost } from './helpers/call-host.ts';
import { expect, openPage, send, test } from './helpers/harness.ts';

test('the page draws a made-up batch once when it starts, and none of it reaches the page, its chat or the host', async ({
  page,
  harness,
}) => {
  const folder = await harness.folder([
    { toolCalls: [{ name: 'thermometer__read', args: { device_id: 'thermometer-1' } }] },
    { text: 'It is read.' },
  ]);
  const host = await harness.host({ dataDir: folder.dataDir, scriptFile: folder.scriptFile });
  const problems = await openPage(page, host);
  await expect
    .poll(() => page.evaluate((name) => performance.getEntriesByName(name).length, BATCH_WARMUP_MEASURE), {
      message: 'the warm-up ran once',
    })
    .toBe(1);
  await expect(page.getByTestId('batch-panel')).toHaveCount(0);
  await expect(page.getByTestId('turn')).toHaveCount(0);
  expect(await callHost(host, 'conversations/list')).toEqual({ conversations: [] });
  await send(page, 'read the thermometer');
  await expect(page.getByTestId('batch-panel')).toHaveCount(1);
  await expect(page.getByTestId('tool-row')).toHaveCount(1);
  await expect(page.getByTestId('turn')).toHaveCount(1);
  expect(problems).toEqual([]);
});
