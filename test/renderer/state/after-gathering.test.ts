import { afterEach, describe, expect, it, vi } from 'vitest';
import { GATHER_MS, afterGathering } from '../../../renderer/state/event-bridge.ts';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('afterGathering (when the bridge folds live events)', () => {
  it('waits 30 ms from the first event, so a burst of calls ending is folded once', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const folded: number[] = [];
    afterGathering(() => folded.push(Date.now()));
    vi.advanceTimersByTime(29);
    expect(folded).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(folded).toHaveLength(1);
  });

  it('then folds before the next paint, where the page has frames', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    // The page's frames, run when the test says (as the browser would run them).
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => frames.push(callback));
    let folded = 0;
    afterGathering(() => (folded += 1));
    vi.advanceTimersByTime(GATHER_MS);
    expect(folded).toBe(0);
    expect(frames).toHaveLength(1);
    for (const frame of frames.splice(0)) frame(0);
    expect(folded).toBe(1);
  });
});
