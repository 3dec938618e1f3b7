// The renderer main thread's CPU over one turn, on a page as a person has it: a fresh host and
// browser, none of the frame bench's recorders (its requestAnimationFrame loop alone asks for a
// main-thread frame every vsync: about 200 ms of CPU over a 64-call turn that the page would not
// spend), a Chromium trace from Send to the end of the turn (main-thread-cpu.ts).
import { chromium, type Browser } from '@playwright/test';
import { chromiumLaunchOptions } from '../e2e/helpers/chromium-launch-options.ts';
import { makeHostFolder, type HostFolder, type ScriptedReply } from '../e2e/helpers/scripted-replies.ts';
import { startHost, type RunningHost } from '../e2e/helpers/start-host.ts';
import { mainThreadCpu, type MainThreadCpu, type TraceEvent } from './main-thread-cpu.ts';
import {
  CHROMIUM,
  DEVICE_LATENCY_MS,
  DRAW_NO_BATCH,
  MESSAGE,
  STEP_TIMEOUT_MS,
  TURN_ENDED,
  batchWarmupDone,
  checkBatchShown,
  checkNoBatchShown,
  journalBatch,
} from './ui-frames-bench.ts';

/** What the trace records: the main thread's tasks with their thread time, nothing more (tracing costs the page too). */
const TRACE_CATEGORIES = ['toplevel', 'devtools.timeline'];

/**
 * One turn of `replies` on a fresh host and page, traced from Send to its end; fails unless the page
 * shows the batch with every call executed ok (with `drawNoBatch`, unless it shows none of it), or
 * when the trace gives no figures. `staticDir`: the host serves that build of the page.
 */
export async function cpuRun(options: {
  replies: ScriptedReply[];
  signal: AbortSignal;
  drawNoBatch?: boolean;
  staticDir?: string;
}): Promise<MainThreadCpu> {
  const { signal } = options;
  const tools = options.replies[0]!.toolCalls!.length;
  let folder: HostFolder | undefined;
  let host: RunningHost | undefined;
  let browser: Browser | undefined;
  try {
    folder = await makeHostFolder(options.replies);
    host = await startHost({
      dataDir: folder.dataDir,
      scriptFile: folder.scriptFile,
      extraArgs: [
        '--sim-latency-ms',
        String(DEVICE_LATENCY_MS),
        ...(options.staticDir === undefined ? [] : ['--static', options.staticDir]),
      ],
      signal,
    });
    browser = await chromium.launch({ ...chromiumLaunchOptions, executablePath: CHROMIUM, timeout: STEP_TIMEOUT_MS });
    const page = await browser.newPage();
    // Closing the browser ends every pending Playwright call: that is how the signal stops the run.
    const closeOnAbort = (): void => void browser?.close();
    signal.addEventListener('abort', closeOnAbort, { once: true });
    try {
      if (options.drawNoBatch) await page.addInitScript(DRAW_NO_BATCH);
      await page.goto(host.url);
      await page
        .getByTestId('connection-status')
        .filter({ hasText: 'Connected' })
        .waitFor({ timeout: STEP_TIMEOUT_MS });
      await batchWarmupDone(page);
      await page.getByTestId('composer-input').fill(MESSAGE);
      await browser.startTracing(page, { categories: TRACE_CATEGORIES });
      await page.getByTestId('send-button').click();
      await page.evaluate(TURN_ENDED);
      const cpu = mainThreadCpu(traceEvents(await browser.stopTracing()));
      const status = await page.getByTestId('turn').first().getAttribute('data-status');
      if (status !== 'done') throw new Error(`the turn ended '${status}', not done`);
      if (options.drawNoBatch) await checkNoBatchShown(page);
      else await checkBatchShown(page, tools);
      const batch = await journalBatch(host);
      if (batch.executed !== tools)
        throw new Error(`the host's journal says ${batch.executed} of ${tools} calls executed`);
      return cpu;
    } catch (error) {
      if (signal.aborted) throw new Error(`the UI bench was stopped: ${String(signal.reason)}`, { cause: error });
      throw error;
    } finally {
      signal.removeEventListener('abort', closeOnAbort);
    }
  } finally {
    await browser?.close();
    await host?.stop();
    await folder?.remove();
  }
}

/** The events of a trace as Chromium writes it; a trace that is not one fails the run. */
function traceEvents(trace: Buffer): TraceEvent[] {
  const parsed = JSON.parse(trace.toString('utf8')) as { traceEvents?: unknown };
  if (!Array.isArray(parsed.traceEvents)) throw new Error('the turn’s Chromium trace holds no traceEvents');
  return parsed.traceEvents as TraceEvent[];
}
