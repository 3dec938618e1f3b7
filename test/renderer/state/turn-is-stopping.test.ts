import { describe, expect, it } from 'vitest';
import { turnIsStopping } from '../../../renderer/state/chat-slice.ts';
import type { AppState } from '../../../renderer/state/create-app-store.ts';

/** Just what the question reads: which turns' Stop was accepted, and each turn's status. */
function stateWith(stopping: string[], statuses: Record<string, 'running' | 'done' | 'aborted'>) {
  return {
    stopping: Object.fromEntries(stopping.map((turnId) => [turnId, true as const])),
    turns: Object.fromEntries(Object.entries(statuses).map(([turnId, status]) => [turnId, { status }])),
  } as unknown as Pick<AppState, 'stopping' | 'turns'>;
}

describe('whether a turn is stopping', () => {
  it('is true for a running turn whose Stop the host accepted', () => {
    expect(turnIsStopping(stateWith(['t1'], { t1: 'running' }), 't1')).toBe(true);
  });

  it('is false once that turn ended, even when its turn/end was never seen live (a journal reload ended it)', () => {
    const state = stateWith(['t1'], { t1: 'aborted', t2: 'running' });
    expect(turnIsStopping(state, 't1')).toBe(false);
    // The next turn of the same conversation was never stopped: its Stop button must work.
    expect(turnIsStopping(state, 't2')).toBe(false);
  });

  it('is false for no turn at all', () => {
    expect(turnIsStopping(stateWith([], {}), undefined)).toBe(false);
  });
});
