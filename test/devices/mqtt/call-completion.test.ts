import { describe, expect, it } from 'vitest';
import { nextCompletion, PUBLISHED, type Completion } from '../../../devices/mqtt/conventions/call-completion.ts';
import type { StateExpectation } from '../../../devices/mqtt/conventions/convention-device.ts';

const stateOn: StateExpectation = { matches: (state) => state.state === 'ON', describe: 'state ON' };

function run(events: Parameters<typeof nextCompletion>[1][], expectation?: StateExpectation): Completion {
  return events.reduce((current, event) => nextCompletion(current, event, expectation), PUBLISHED);
}

describe('nextCompletion', () => {
  it('completes confirmed when the device publishes the state asked for', () => {
    expect(run([{ type: 'acknowledged' }, { type: 'state', state: { state: 'ON' } }], stateOn)).toEqual({
      phase: 'done',
      confirmed: true,
      state: { state: 'ON' },
    });
  });

  it('is not completed by the acknowledgement alone when there is a state to wait for', () => {
    expect(run([{ type: 'acknowledged' }], stateOn)).toEqual({ phase: 'waiting', acknowledged: true });
  });

  it('completes confirmed on a matching state that comes before the acknowledgement', () => {
    expect(run([{ type: 'state', state: { state: 'ON' } }], stateOn)).toMatchObject({ phase: 'done', confirmed: true });
  });

  it('keeps waiting on a state that says otherwise, and times out naming it', () => {
    const completion = run(
      [{ type: 'acknowledged' }, { type: 'state', state: { state: 'OFF' } }, { type: 'timeout' }],
      stateOn,
    );
    expect(completion).toEqual({ phase: 'timed_out', acknowledged: true, lastState: { state: 'OFF' } });
  });

  it('without a state to wait for, completes unconfirmed on the acknowledgement', () => {
    expect(run([{ type: 'acknowledged' }])).toEqual({ phase: 'done', confirmed: false });
  });

  it('times out when the broker never acknowledges a call without a state', () => {
    expect(run([{ type: 'timeout' }])).toEqual({ phase: 'timed_out', acknowledged: false });
  });

  it('stays completed whatever comes after', () => {
    const done = run([{ type: 'state', state: { state: 'ON' } }, { type: 'timeout' }], stateOn);
    expect(done).toMatchObject({ phase: 'done', confirmed: true });
  });
});
