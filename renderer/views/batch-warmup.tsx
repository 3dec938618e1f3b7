import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { agentEventSchema, type HostAgentEvent } from '../../host/contract/api-contract.ts';
import type { ApiClient } from '../api/api-client.ts';
import { createAppStore } from '../state/create-app-store.ts';
import { SCREENFUL_OF_ROWS } from './batch-panel.tsx';
import { TurnView } from './turn-view.tsx';
import { AppStoreContext } from './use-app-store.ts';
import { BATCH_WARMUP_MEASURE } from './batch-warmup-measure.ts';

/** As many calls as a screen holds: the warm-up's batch takes the path a batch of a screenful draws. */
const WARMUP_CALLS = SCREENFUL_OF_ROWS;
const CONVERSATION = 'batch-warmup';
const TURN = 'batch-warmup-turn';
const BATCH = 'batch-warmup-batch';

/**
 * Draws one made-up turn with a 16-call parallel batch, from its first event to its end, with a
 * store of its own, into a hidden container that is in the page for this one task only, then throws
 * all of it away.
 *
 * Without it the first batch of a page pays, inside the frame that draws its panel, for every
 * function of the socket's check, the fold and the batch's views running for the first time (V8
 * compiles each on its first call) and for the first styling and layout of its rows: in traces of a
 * 16-call batch that frame's React work was 44 ms cold and 7–13 ms after this warm-up, and, with the
 * bench's turn, a page that had drawn a batch before drew its next one's first frame in 18–40 ms
 * against 34–75 ms for a fresh page (docs/architecture.md). Run at the page's first idle moment,
 * the cost moves to start-up, before a person can have sent anything.
 *
 * Nothing of it reaches the app's store, the host or anything that looks at the page: the container
 * is added and removed within one task, so no query, paint or accessibility update sees it (and it
 * is `aria-hidden`, `inert` and invisible besides); nothing drawn calls the API
 * (`test/renderer/views/batch-warmup.test.ts`, `test/e2e/batch-warmup.spec.ts`).
 */
export function warmUpBatchDrawing(api: ApiClient, now: number = Date.now()): void {
  const started = performance.now();
  const store = createAppStore({ api, storage: { local: undefined, session: undefined } });
  const container = document.createElement('div');
  container.setAttribute('aria-hidden', 'true');
  container.inert = true;
  container.style.cssText = 'position:fixed;inset:0;visibility:hidden;overflow:hidden;pointer-events:none';
  document.body.append(container);
  const root = createRoot(container);
  try {
    flushSync(() =>
      root.render(
        <AppStoreContext.Provider value={store}>
          <TurnView turnId={TURN} />
        </AppStoreContext.Provider>,
      ),
    );
    for (const events of warmupTurn(now)) {
      // Through the socket's own check, then the fold, then a drawing of what changed.
      const checked = events.map((event) => agentEventSchema.parse(event));
      flushSync(() => store.getState().applyEvents(checked));
      // Styles and lays out what was drawn now: a drawing left for the frame would never be laid out.
      void container.offsetHeight;
    }
  } finally {
    root.unmount();
    container.remove();
    performance.measure(BATCH_WARMUP_MEASURE, { start: started });
  }
}

/** The warm-up turn's events, in the groups a live turn's frames take them. */
function warmupTurn(now: number): HostAgentEvent[][] {
  const base = { conversationId: CONVERSATION, turnId: TURN };
  const calls = Array.from({ length: WARMUP_CALLS }, (_, index) => ({
    index,
    callId: `warmup-call-${index}`,
    name: index % 2 === 0 ? 'lamp__set' : 'thermometer__read',
    args: index % 2 === 0 ? { device_id: 'warmup', on: true } : { device_id: 'warmup' },
  }));
  const ends = calls.map((call): HostAgentEvent => ({
    ...base,
    type: 'tool/end',
    at: now + 250,
    batchId: BATCH,
    callId: call.callId,
    name: call.name,
    index: call.index,
    ok: true,
    result: { ok: true },
    outcome: 'done',
    queuedMs: 1,
    runMs: 249,
    startedAt: now + 1,
    endedAt: now + 250,
  }));
  return [
    [
      { ...base, type: 'turn/start', at: now, text: 'warm-up', model: 'warm-up' },
      { ...base, type: 'step/start', at: now, step: 0 },
      { ...base, type: 'batch/open', at: now, batchId: BATCH, step: 0 },
    ],
    [
      {
        ...base,
        type: 'message/assistant',
        at: now,
        step: 0,
        text: '',
        toolCalls: calls.map((call) => ({ id: call.callId, name: call.name, args: call.args })),
      },
      { ...base, type: 'batch/start', at: now, step: 0, batchId: BATCH, mode: 'parallel', reason: 'parallel', calls },
      ...calls.map((call): HostAgentEvent => ({
        ...base,
        type: 'tool/start',
        at: now + 1,
        batchId: BATCH,
        callId: call.callId,
        name: call.name,
        index: call.index,
      })),
    ],
    ends.slice(0, WARMUP_CALLS / 2),
    [
      ...ends.slice(WARMUP_CALLS / 2),
      { ...base, type: 'batch/end', at: now + 251, batchId: BATCH, wallMs: 250, executed: WARMUP_CALLS },
      { ...base, type: 'step/end', at: now + 251, step: 0 },
    ],
    [
      { ...base, type: 'step/start', at: now + 252, step: 1 },
      { ...base, type: 'text/delta', at: now + 253, step: 1, text: 'Done.' },
      { ...base, type: 'message/assistant', at: now + 254, step: 1, text: 'Done.', toolCalls: [] },
      { ...base, type: 'step/end', at: now + 254, step: 1 },
      { ...base, type: 'turn/end', at: now + 255, reason: 'done' },
    ],
  ];
}
