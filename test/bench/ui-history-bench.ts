// A long conversation in the window: `batches` turns of one 4-call batch each are written straight
// into a fresh store (not run turn by turn), then a real `home-agent serve` on it is opened in
// headless Chromium: how long the conversation takes to open, and the frames while it is scrolled.
import { mkdirSync } from 'node:fs';
import { chromium, type Browser } from '@playwright/test';
import type { AgentEvent } from '../../core/events/agent-event.ts';
import { databaseFileOf } from '../../host/config/data-dir.ts';
import { openDatabase } from '../../host/store/open-database.ts';
import { SqliteConversationStore } from '../../host/store/sqlite-conversation-store.ts';
import { chromiumLaunchOptions } from '../e2e/helpers/chromium-launch-options.ts';
import { makeHostFolder, type HostFolder } from '../e2e/helpers/scripted-replies.ts';
import { startHost, type RunningHost } from '../e2e/helpers/start-host.ts';
import { FRAME_RECORDER, percentile, round, type UiHistoryEntry } from './ui-frames-bench.ts';

const CHROMIUM = chromiumLaunchOptions.executablePath ?? '/usr/bin/chromium';
const STEP_TIMEOUT_MS = 120_000;
const LONG_FRAME_MS = 50;
const CONVERSATION = 'bench-history';
/** Frames of scrolling, and how far each moves (px): about 40 screens of turns, upwards. */
const SCROLL_FRAMES = 240;
const SCROLL_STEP_PX = 150;

/** Writes `batches` finished turns (each: a reply with 4 calls, their results, then a closing text). */
function seedHistory(dataDir: string, batches: number): void {
  mkdirSync(dataDir, { recursive: true });
  const db = openDatabase({ file: databaseFileOf(dataDir) });
  try {
    const store = new SqliteConversationStore({ db });
    db.transaction(() => {
      store.ensureConversation(CONVERSATION, 'A long history');
      let at = Date.UTC(2026, 0, 1);
      for (let turn = 0; turn < batches; turn += 1) {
        const turnId = `turn-${turn}`;
        const where = { conversationId: CONVERSATION, turnId };
        const calls = [0, 1, 2, 3].map((index) => ({
          index,
          callId: `call-${turn}-${index}`,
          name: index % 2 === 0 ? 'lamp__set' : 'thermometer__read',
          args:
            index % 2 === 0
              ? { device_id: `lamp-${1 + (index >> 1)}`, on: turn % 2 === 0 }
              : { device_id: 'thermometer-1' },
        }));
        const text = `Turn ${turn}: switching the lamps and reading the temperature.`;
        const events: AgentEvent[] = [
          { ...where, at: (at += 1), type: 'turn/start', text: `Turn ${turn}, lamps and temperature`, model: 'seeded' },
          { ...where, at: (at += 1), type: 'step/start', step: 1 },
          { ...where, at: (at += 5), type: 'text/delta', step: 1, text },
          {
            ...where,
            at: (at += 1),
            type: 'message/assistant',
            step: 1,
            text,
            toolCalls: calls.map((call) => ({ id: call.callId, name: call.name, args: call.args })),
          },
          { ...where, at: (at += 1), type: 'batch/open', batchId: `batch-${turn}`, step: 1 },
          {
            ...where,
            at,
            type: 'batch/start',
            batchId: `batch-${turn}`,
            step: 1,
            mode: 'parallel',
            reason: 'parallel: all 4 calls are parallel-safe',
            calls,
          },
          ...calls.map((call): AgentEvent => ({
            ...where,
            at: at + 1,
            type: 'tool/start',
            batchId: `batch-${turn}`,
            ...call,
          })),
          ...calls.map((call): AgentEvent => ({
            ...where,
            at: at + 250,
            type: 'tool/end',
            batchId: `batch-${turn}`,
            callId: call.callId,
            name: call.name,
            index: call.index,
            ok: true,
            result: { device_id: call.args.device_id, result: { ok: true } },
            outcome: 'done',
            queuedMs: 1,
            runMs: 249,
            startedAt: at + 1,
            endedAt: at + 250,
          })),
          { ...where, at: (at += 251), type: 'batch/end', batchId: `batch-${turn}`, wallMs: 251, executed: 4 },
          { ...where, at: (at += 1), type: 'step/end', step: 1 },
          { ...where, at: (at += 1), type: 'step/start', step: 2 },
          { ...where, at: (at += 5), type: 'message/assistant', step: 2, text: 'Done.', toolCalls: [] },
          { ...where, at: (at += 1), type: 'step/end', step: 2 },
          { ...where, at: (at += 1), type: 'turn/end', reason: 'done' },
        ];
        store.appendMessage(CONVERSATION, { role: 'user', text: `Turn ${turn}, lamps and temperature` });
        store.appendMessage(CONVERSATION, {
          role: 'assistant',
          text,
          toolCalls: calls.map((call) => ({ id: call.callId, name: call.name, args: call.args })),
        });
        for (const call of calls)
          store.appendMessage(CONVERSATION, {
            role: 'tool',
            toolCallId: call.callId,
            toolName: call.name,
            content: '{"ok":true}',
            isError: false,
          });
        store.appendMessage(CONVERSATION, { role: 'assistant', text: 'Done.', toolCalls: [] });
        for (const event of events) store.appendEvent(event);
        at += 10_000;
      }
    })();
  } finally {
    db.close();
  }
}

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
      await page.evaluate(FRAME_RECORDER);
      const openMs = await page.evaluate<number>(OPEN_AND_WAIT(`Turn ${options.batches - 1}, lamps`));
      const frames = await page.evaluate<number[]>(SCROLL_UP);
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
