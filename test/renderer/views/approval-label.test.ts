import { describe, expect, it } from 'vitest';
import { approvalLabel } from '../../../renderer/views/approval-label.ts';

describe('approvalLabel', () => {
  it('names every state of a question in the words the batch row shows', () => {
    expect((['waiting', 'allowed', 'denied', 'timeout', 'stopped', 'unanswered'] as const).map(approvalLabel)).toEqual([
      'waiting for you',
      'allowed by you',
      'denied by you',
      'not answered in time',
      'stopped',
      'not answered',
    ]);
  });
});
