import { describe, expect, it } from 'vitest';
import { abortableDelay } from '../../../devices/transport/abortable-delay.ts';

const timers = (): number => process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length;

describe('abortableDelay', () => {
  it('waits a turn of the event loop for 0 ms instead of a timer (which Node clamps to 1 ms)', async () => {
    const before = timers();
    const delay = abortableDelay(0);
    expect(timers()).toBe(before);
    expect(process.getActiveResourcesInfo()).toContain('Immediate');
    await delay;
  });

  it('uses a timer for a positive delay and clears it on abort', async () => {
    const before = timers();
    const stop = new AbortController();
    const delay = abortableDelay(60_000, stop.signal);
    expect(timers()).toBe(before + 1);
    stop.abort(new Error('stopped'));
    await expect(delay).rejects.toThrow('stopped');
    expect(timers()).toBe(before);
  });

  it('a 0 ms delay that is aborted rejects with the reason and leaves nothing scheduled', async () => {
    const stop = new AbortController();
    const delay = abortableDelay(0, stop.signal);
    stop.abort(new Error('stopped at once'));
    await expect(delay).rejects.toThrow('stopped at once');
    expect(process.getActiveResourcesInfo()).not.toContain('Immediate');
  });
});
