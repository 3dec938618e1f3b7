// @vitest-environment happy-dom
import { takeRenders } from '../helpers/react-render-counter.ts';
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '../../../renderer/api/api-client.ts';
import { createAppStore, type AppStore } from '../../../renderer/state/create-app-store.ts';
import { BatchPanel } from '../../../renderer/views/batch-panel.tsx';
import { AppStoreContext } from '../../../renderer/views/use-app-store.ts';
import { event, skeletonTurn } from '../helpers/agent-events.ts';
import { MemoryStorage } from '../helpers/memory-storage.ts';

(globalThis as Record<string, unknown>).IS_REACT_ACT_ENVIRONMENT = true;

// A batch panel reads only the store: no call reaches the host here.
const noHost = new Proxy({} as ApiClient, {
  get: (_target, name) => () => {
    throw new Error(`the batch panel called the API (${String(name)})`);
  },
});

let store: AppStore;
let root: Root;

/** The skeleton turn up to its three tool/start events: one parallel batch, every call running. */
function runningBatch(): void {
  const events = skeletonTurn();
  store.getState().applyEvents(
    events.slice(
      0,
      events.findIndex((entry) => entry.type === 'tool/end'),
    ),
  );
}

/** Which rows (by call id) and panels were drawn since the last look. */
function drawn(): { rows: string[]; panels: number } {
  const renders = takeRenders();
  return {
    rows: renders
      .filter((render) => render.name === 'ToolRowBody')
      .map((render) => (render.props.row as { callId: string }).callId)
      .sort(),
    panels: renders.filter((render) => render.name === 'BatchPanelBody').length,
  };
}

beforeEach(async () => {
  // The counter is shared by every file a worker runs (isolate: false): what an earlier one drew is not this test's.
  takeRenders();
  store = createAppStore({ api: noHost, storage: { local: new MemoryStorage(), session: new MemoryStorage() } });
  runningBatch();
  root = createRoot(document.body.appendChild(document.createElement('div')));
  await act(async () => {
    root.render(
      createElement(AppStoreContext.Provider, { value: store }, createElement(BatchPanel, { batchId: 'b1' })),
    );
  });
});

afterEach(async () => {
  await act(async () => root.unmount());
});

describe('a batch panel draws again only what changed', () => {
  it('draws every row once when it appears', () => {
    expect(drawn()).toEqual({ rows: ['call-a', 'call-b', 'call-c'], panels: 1 });
  });

  it('draws only the row whose call ended, not the rows whose calls did not change', async () => {
    takeRenders();
    await act(async () => {
      store.getState().applyEvents([
        event({
          type: 'tool/end',
          at: 1150,
          batchId: 'b1',
          callId: 'call-c',
          name: 'thermometer__read',
          index: 2,
          ok: true,
          result: { celsius: 21 },
          queuedMs: 2,
          runMs: 48,
          startedAt: 1102,
          endedAt: 1150,
        }),
      ]);
    });
    expect(drawn()).toEqual({ rows: ['call-c'], panels: 1 });
    // The row shows the call's end: it was really drawn from the new record.
    expect(document.querySelector('[data-call-id="call-c"]')?.getAttribute('data-status')).toBe('done');
  });

  it('draws nothing for an event that changes nothing it shows, or another batch', async () => {
    takeRenders();
    await act(async () => {
      store
        .getState()
        .applyEvents([
          event({ type: 'step/start', at: 1200, step: 1 }),
          event({ type: 'batch/open', at: 1201, step: 1, batchId: 'b2', conversationId: 'c2', turnId: 't2' }),
        ]);
    });
    expect(drawn()).toEqual({ rows: [], panels: 0 });
  });
});

describe('a large batch', () => {
  const where = { conversationId: 'c9', turnId: 't9' };
  const opened = () => event({ ...where, type: 'batch/open', at: 2000, step: 1, batchId: 'b9' });
  const started = (count: number) =>
    event({
      ...where,
      type: 'batch/start',
      at: 2001,
      step: 1,
      batchId: 'b9',
      mode: 'parallel',
      reason: 'x',
      calls: Array.from({ length: count }, (_, index) => ({
        index,
        callId: `big-${index}`,
        name: 'lamp__get',
        args: { device_id: 'lamp-1' },
      })),
    });

  /** The call ids of panel b9's rows drawn far from the view: their line of text alone (use-near-rows.ts). */
  const farRows = () =>
    [...document.querySelectorAll('[data-batch-id="b9"] [data-testid="tool-row"][data-far="true"]')].map((row) =>
      row.getAttribute('data-call-id'),
    );

  /**
   * Draws panel b9 on its own root, then runs `frames` animation frames (the test's to run: each runs
   * what was asked of it, as the browser's would), after `between` when given: the rows drawn at each.
   */
  async function rowsPerFrame(
    frames: number,
    between?: () => void,
    then?: () => void,
  ): Promise<{ drawnPerFrame: string[][]; many: boolean; far: (string | null)[]; farAfter: (string | null)[] }> {
    const asked: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => asked.push(callback));
    vi.stubGlobal('cancelAnimationFrame', (id: number) => delete asked[id - 1]);
    const big = createRoot(document.body.appendChild(document.createElement('div')));
    try {
      takeRenders();
      await act(async () => {
        big.render(
          createElement(AppStoreContext.Provider, { value: store }, createElement(BatchPanel, { batchId: 'b9' })),
        );
      });
      const drawnPerFrame = [drawn().rows];
      if (between) {
        await act(async () => between());
        drawnPerFrame.push(drawn().rows);
      }
      for (let frame = 0; frame < frames; frame += 1) {
        await act(async () => {
          for (const callback of asked.splice(0)) callback?.(performance.now());
        });
        drawnPerFrame.push(drawn().rows);
      }
      expect(document.querySelectorAll('[data-call-id^="big-"]')).toHaveLength(new Set(drawnPerFrame.flat()).size);
      const many = document.querySelector('[data-batch-id="b9"]')?.classList.contains('batch-panel-many') === true;
      const far = farRows();
      if (then) await act(async () => then());
      return { drawnPerFrame, many, far, farAfter: farRows() };
    } finally {
      await act(async () => big.unmount());
      vi.unstubAllGlobals();
    }
  }

  it('draws a large batch 32 rows a frame, each row once, and far until the observer sees a row near', async () => {
    store.getState().applyEvents([opened(), started(40)]);
    const { drawnPerFrame, many, far } = await rowsPerFrame(5);
    expect(drawnPerFrame.map((rows) => rows.length)).toEqual([32, 8, 0, 0, 0, 0]);
    // happy-dom's IntersectionObserver never reports: no row is known to be near, so all are far.
    expect(far).toHaveLength(40);
    // More rows than a screen holds: the panel says so, and styles.css skips drawing those off screen;
    // the three-call panel drawn beside it does not, and draws its rows whole.
    expect(many).toBe(true);
    expect(document.querySelector('[data-batch-id="b1"]')?.classList.contains('batch-panel-many')).toBe(false);
    expect(document.querySelectorAll('[data-batch-id="b1"] [data-far]')).toHaveLength(0);
  });

  it('draws a batch a screen holds in one frame: 16 rows, then nothing', async () => {
    store.getState().applyEvents([opened(), started(16)]);
    const { drawnPerFrame, many } = await rowsPerFrame(2);
    expect(drawnPerFrame.map((rows) => rows.length)).toEqual([16, 0, 0]);
    expect(many).toBe(false);
  });

  it('opened while its calls stream, keeps the rows it drew whole when it grows past a screenful', async () => {
    store.getState().applyEvents([opened()]);
    // 16 calls arrive, drawn whole; then four more: the panel is large now, and the 16 stay whole
    // until the observer looks (happy-dom's never does), the new four far.
    const { drawnPerFrame, far, farAfter } = await rowsPerFrame(
      2,
      () => store.getState().applyEvents([started(16)]),
      () => store.getState().applyEvents([started(20)]),
    );
    expect(drawnPerFrame.map((rows) => rows.length)).toEqual([0, 16, 0, 0]);
    expect(far).toEqual([]);
    expect(farAfter).toEqual(['big-16', 'big-17', 'big-18', 'big-19']);
  });
});

describe('the timeline of a live batch', () => {
  /** Renders batch b1 on its own root with the clock at `now` (fake timers: the axis steps when the test says). */
  async function renderAt(now: number): Promise<Root> {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'], now });
    const own = createRoot(document.body.appendChild(document.createElement('div')));
    await act(async () => {
      own.render(
        createElement(AppStoreContext.Provider, { value: store }, createElement(BatchPanel, { batchId: 'b1' })),
      );
    });
    return own;
  }

  afterEach(() => {
    vi.useRealTimers();
  });

  it('animates one curtain for the whole panel, and draws each growing bar to the axis end', async () => {
    await act(async () => root.unmount());
    const own = await renderAt(1200);
    try {
      const panel = document.querySelector('[data-batch-id="b1"]') as HTMLElement;
      // Three calls run; one curtain hides the part of their bars past now (100 ms of a 1 s axis).
      expect(panel.querySelectorAll('[data-testid="timing-curtain"]')).toHaveLength(1);
      const curtain = panel.querySelector<HTMLElement>('[data-testid="timing-curtain"]')!;
      expect([
        curtain.style.getPropertyValue('--curtain-ms'),
        curtain.style.getPropertyValue('--curtain-delay'),
      ]).toEqual(['1000ms', '-100ms']);
      // Each running call's run starts where it started (2 or 3 ms) and reaches the axis end.
      const runs = [...panel.querySelectorAll<HTMLElement>('[data-testid="timing-bar"] .timing-run')].map((run) => [
        run.style.left,
        run.style.right,
      ]);
      expect(runs).toEqual([
        ['calc(100% * 2 / var(--axis-ms))', '0px'],
        ['calc(100% * 3 / var(--axis-ms))', '0px'],
        ['calc(100% * 2 / var(--axis-ms))', '0px'],
      ]);
      expect(panel.style.getPropertyValue('--axis-ms')).toBe('1000');
      // An ended batch has no curtain: every bar has its length.
      await act(async () => {
        store
          .getState()
          .applyEvents(skeletonTurn().slice(skeletonTurn().findIndex((entry) => entry.type === 'tool/end')));
      });
      expect(panel.querySelectorAll('[data-testid="timing-curtain"]')).toHaveLength(0);
    } finally {
      await act(async () => own.unmount());
    }
  });

  it('draws no row again when now reaches the axis end: only the axis and the curtain change', async () => {
    await act(async () => root.unmount());
    const own = await renderAt(1200);
    try {
      const before = document.querySelector('[data-testid="timing-curtain"]');
      takeRenders();
      // Now passes 1 s after the batch's start (1100): the axis becomes 2 s.
      await act(async () => {
        vi.advanceTimersByTime(1000);
      });
      expect(drawn()).toEqual({ rows: [], panels: 1 });
      const panel = document.querySelector('[data-batch-id="b1"]') as HTMLElement;
      expect(panel.style.getPropertyValue('--axis-ms')).toBe('2000');
      const curtain = panel.querySelector<HTMLElement>('[data-testid="timing-curtain"]')!;
      expect(curtain.style.getPropertyValue('--curtain-ms')).toBe('2000ms');
      // A new element, so a new animation: one given a new delay would run from its first start.
      expect(curtain).not.toBe(before);
    } finally {
      await act(async () => own.unmount());
    }
  });
});
