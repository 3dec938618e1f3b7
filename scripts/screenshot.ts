// Takes docs/screenshot.png for the README: a real `home-agent serve` (simulated devices, scripted
// model) driven in Debian's Chromium through two turns — a parallel batch, then a serial one with
// channel outputs. Run: `npx tsx scripts/screenshot.ts` (after `npm run build:renderer`).
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium, expect } from '@playwright/test';
import { chromiumLaunchOptions } from '../test/e2e/helpers/chromium-launch-options.ts';
import { makeHostFolder, walkingSkeletonReplies, type ScriptedReply } from '../test/e2e/helpers/scripted-replies.ts';
import { startHost } from '../test/e2e/helpers/start-host.ts';

const output = fileURLToPath(new URL('../docs/screenshot.png', import.meta.url));

const replies: ScriptedReply[] = [
  ...walkingSkeletonReplies.slice(0, 1),
  { text: 'Both lamps are on. It is 21.5 °C in the living room.' },
  {
    text: 'I will tell everyone.',
    toolCalls: [
      { name: 'output_send__chat', args: { text: 'Lamps on in the living room.' } },
      { name: 'output_send__notifications', args: { text: 'Living room: lamps on, 21.5 °C' } },
      { name: 'output_send__chat', args: { text: 'Anything else?' } },
    ],
  },
  { text: 'Sent.' },
];

const folder = await makeHostFolder(replies);
const host = await startHost({
  dataDir: folder.dataDir,
  scriptFile: folder.scriptFile,
  extraArgs: ['--sim-latency-ms', '120'],
});
const browser = await chromium.launch(chromiumLaunchOptions);
try {
  const page = await browser.newPage({
    viewport: { width: 1360, height: 860 },
    deviceScaleFactor: 1,
    colorScheme: 'light',
  });
  await page.goto(host.url);
  await expect(page.getByTestId('connection-status')).toHaveText('Connected');
  const send = async (text: string, turns: number) => {
    await page.getByTestId('composer-input').fill(text);
    await page.getByTestId('send-button').click();
    await expect(page.locator('[data-testid="turn"][data-status="done"]')).toHaveCount(turns, { timeout: 30_000 });
  };
  await send('Turn on the living-room lamps and tell me the temperature.', 1);
  await send('Let everyone know.', 2);
  await mkdir(fileURLToPath(new URL('../docs/', import.meta.url)), { recursive: true });
  await page.screenshot({ path: output });
  console.log(`Wrote ${output}`);
} finally {
  await browser.close();
  await host.stop();
  await folder.remove();
}
