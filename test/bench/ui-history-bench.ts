// A long conversation in the window: `batches` turns of one 4-call batch each are written straight
// into a fresh store (not run turn by turn), then a real `home-agent serve` on it is opened in
// headless Chromium: how long the conversation takes to open, and the frames while it is scrolled.
import { chromium, type Browser } from '@playwright/test';
import { chromiumLaunchOptions } from '../e2e/helpers/chromium-launch-options.ts';
import { makeHostFolder, type HostFolder } from '../e2e/helpers/scripted-replies.ts';
import { seedHistory } from '../e2e/helpers/seed-history.ts';
import { startHost, type RunningHost } from '../e2e/helpers/start-host.ts';
import {
  FRAME_RECORDER,
  batchWarmupDone,
  chromiumCpu,
  percentile,
  round,
  type UiHistoryEntry,
} from './ui-frames-bench.ts';

const CHROMIUM = chromiumLaunchOptions.executablePath ?? '/usr/bin/chromium';
const STEP_TIMEOUT_MS = 120_000;
const LONG_FRAME_MS = 50;
/** Frames of scrolling, and how far each moves (px): about 40 screens of turns, upwards. */
const SCROLL_FRAMES = 240;
const SCROLL_STEP_PX = 150;

// Clicks the conversation and waits, inside the page, for its newest turn to be on screen.
const OPEN_AND_WAIT = (last: string) => `(async () => {
  const started = performance.now();
  document.querySelector('[data-testid="conversation-item"]').click();
  await new Promise((resolve) => {
    const check = () => {
      const turns = [...document.querySelectorAll('[data-testid="turn"]')];
      if (turns.some((turn) => turn.textContent.includes(${JSON.stringify(last)}))) resolve();
      else requestAnimationFrame(check);
    };
    check();
  });
  return performance.now() - started;
})()`;

// Scrolls the conversation upwards a step each frame, recording the frames meanwhile.
const SCROLL_UP = `(async () => {
  const scroller = document.querySelector('.chat-scroll');
  window.__uiFrames.start();
  for (let frame = 0; frame < ${SCROLL_FRAMES}; frame += 1) {
    scroller.scrollTop = Math.max(0, scroller.scrollTop - ${SCROLL_STEP_PX});
    await new Promise((resolve) => requestAnimationFrame(resolve));
  }
  return window.__uiFrames.stop();
})()`;

/** Seeds the conversation, serves it, opens it and scrolls it; throws when any step fails. */
export async function benchHistory(options: { batches: number; signal: AbortSignal }): Promise<UiHistoryEntry> {
  const { signal } = options;
  let folder: HostFolder | undefined;
  let host: RunningHost | undefined;
  let browser: Browser | undefined;
  try {
    folder = await makeHostFolder([{ text: 'Nothing to do.' }]);
    seedHistory(folder.dataDir, options.batches);
    host = await startHost({ dataDir: folder.dataDir, scriptFile: folder.scriptFile, signal });
    browser = await chromium.launch({ ...chromiumLaunchOptions, executablePath: CHROMIUM, timeout: STEP_TIMEOUT_MS });
    const page = await browser.newPage();
    page.setDefaultTimeout(STEP_TIMEOUT_MS);
    const closeOnAbort = (): void => void browser?.close();
    signal.addEventListener('abort', closeOnAbort, { once: true });
    try {
      await page.goto(host.url);
      await page.getByTestId('connection-status').filter({ hasText: 'Connected' }).waitFor();
      await page.getByTestId('conversation-item').first().waitFor();
      // The page's start-up work ends before the conversation is opened.
      await batchWarmupDone(page);
      await page.evaluate(FRAME_RECORDER);
      const openMs = await page.evaluate<number>(OPEN_AND_WAIT(`Turn ${options.batches - 1}, lamps`));
      const scrollCount = await chromiumCpu(browser);
      const frames = await page.evaluate<number[]>(SCROLL_UP);
      const scrollCpuMsPerSecond = await scrollCount.perSecond();
      const turnsInDom = await page.getByTestId('turn').count();
      if (frames.length === 0) throw new Error('no animation frames were recorded while scrolling');
      const sorted = [...frames].sort((a, b) => a - b);
      return {
        batches: options.batches,
        openMs: round(openMs),
        scrollFrames: frames.length,
        scrollMedianFrameMs: round(percentile(sorted, 0.5)),
        scrollP95FrameMs: round(percentile(sorted, 0.95)),
        scrollMaxFrameMs: round(sorted[sorted.length - 1]!),
        scrollLongFrames: frames.filter((interval) => interval > LONG_FRAME_MS).length,
        scrollCpuMsPerSecond,
        turnsInDom,
      };
    } finally {
      signal.removeEventListener('abort', closeOnAbort);
    }
  } finally {
    await browser?.close();
    await host?.stop();
    await folder?.remove();
  }
}
