import { describe, expect, it } from 'vitest';
import { ClientTurns } from '../../../host/approvals/client-turns.ts';
import type { ApprovalWait } from '../../../host/approvals/person-approval-gate.ts';

function waitOf(waitMs: number): ApprovalWait {
  return { waitMs, refusal: () => ({ approved: false, detail: 'nobody answered' }) };
}

describe('ClientTurns', () => {
  it('times a call in a client’s turn as that client says, with the settings of now, until the turn ends', () => {
    const turns = new ClientTurns();
    const end = turns.begin('t1', (settings) => waitOf(settings.maxSteps ?? 1));
    expect(turns.approvalWait({ turnId: 't1', caller: 'sequences' }, { maxSteps: 7 })?.waitMs).toBe(7);
    end();
    expect(turns.approvalWait({ turnId: 't1', caller: 'sequences' }, {})).toBeUndefined();
  });

  it('times a client caller’s call in any turn, and nobody else’s', () => {
    const turns = new ClientTurns();
    turns.caller('client', () => waitOf(1000));
    expect(turns.approvalWait({ turnId: 'other', caller: 'client' }, {})?.waitMs).toBe(1000);
    expect(turns.approvalWait({ turnId: 'other', caller: 'agent' }, {})).toBeUndefined();
    expect(turns.approvalWait({ turnId: 'other' }, {})).toBeUndefined();
  });
});
