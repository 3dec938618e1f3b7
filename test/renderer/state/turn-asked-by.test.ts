import { describe, expect, it } from 'vitest';
import { emptyTurnsData, reduceTurns } from '../../../renderer/state/turns-reducer.ts';
import { event } from '../helpers/agent-events.ts';

describe('reduceTurns', () => {
  it('keeps who asked for a turn when it was an MCP client, and nothing for the person’s own', () => {
    const data = reduceTurns(emptyTurnsData, [
      event({
        type: 'turn/start',
        at: 1,
        turnId: 'm',
        text: 'Cursor called lamp__set',
        model: 'MCP: Cursor',
        by: 'Cursor',
      }),
      event({ type: 'turn/start', at: 2, turnId: 'p', text: 'turn on the lamps', model: 'demo' }),
    ]);
    expect(data.turns.m?.askedBy).toBe('Cursor');
    expect(data.turns.p).not.toHaveProperty('askedBy');
  });
});
