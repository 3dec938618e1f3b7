import type { AgentEvent } from '../../../core/events/agent-event.ts';

/** The event full-disk.test.ts and its child process journal until the disk is full: one text delta of about 400 bytes. */
export function fullDiskDelta(index: number): AgentEvent {
  return {
    type: 'text/delta',
    at: 1_700_000_000_000 + index,
    conversationId: 'full',
    turnId: 't1',
    step: 1,
    text: `delta ${index} `.repeat(40),
  };
}
