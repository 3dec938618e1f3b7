import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../core/events/agent-event.ts';
import type { ToolDefinition } from '../../../core/tools/tool-definition.ts';
import { PersonApprovalGate } from '../../../host/approvals/person-approval-gate.ts';
import type { ApprovalTarget } from '../../../host/store/standing-approval-store.ts';

const relaySet: ToolDefinition = {
  name: 'relay__set',
  description: 'Switch one relay channel.',
  parameters: {
    type: 'object',
    properties: {
      device_id: { type: 'string' },
      channel: { type: 'integer', minimum: 1, maximum: 4 },
      on: { type: 'boolean' },
    },
    required: ['device_id', 'channel', 'on'],
  },
  needsApproval: true,
  handler: () => ({ switched: true }),
};
const asked = { device_id: 'relay-1', channel: 2, on: true };

/** A gate that asks, with standing approvals kept in a list, and the question it put. */
function askedGate() {
  const events: AgentEvent[] = [];
  const standing: ApprovalTarget[] = [];
  const gate = new PersonApprovalGate({
    policy: 'ask',
    emit: (event) => void events.push(event),
    standing: { covers: () => false, add: (target) => standing.push(target) > 0 },
    targetOf: (tool, args) => ({ tool, deviceId: String(args.device_id) }),
    newId: () => 'q1',
  });
  const decision = gate.gate({
    conversationId: 'c1',
    turnId: 't1',
    batchId: 'b1',
    callId: 'call-0',
    index: 0,
    tool: relaySet,
    args: asked,
    signal: new AbortController().signal,
  });
  return { gate, events, standing, decision };
}

describe('the gate takes edited arguments only when they keep the rules', () => {
  it('refuses an edit that breaks the schema or moves the device, leaving the question open', async () => {
    const { gate, decision } = askedGate();
    expect(gate.answer({ approvalId: 'q1', approved: true, args: { ...asked, channel: 9 } })).toBe(false);
    expect(gate.answer({ approvalId: 'q1', approved: true, args: { ...asked, device_id: 'relay-2' } })).toBe(false);
    expect(gate.checkEdit('q1', { ...asked, device_id: 'relay-2' })).toContain('device_id cannot be edited');
    expect(gate.answer({ approvalId: 'q1', approved: true, args: { ...asked, channel: 3 } })).toBe(true);
    expect(await decision).toEqual({ approved: true, args: { ...asked, channel: 3 } });
  });

  it('never remembers an edited call, even when asked to', async () => {
    const { gate, events, standing, decision } = askedGate();
    gate.answer({ approvalId: 'q1', approved: true, remember: true, args: { ...asked, channel: 3 } });
    await decision;
    expect(standing).toEqual([]);
    expect(events.find((event) => event.type === 'approval/end')).toMatchObject({ approved: true, edited: true });
    expect(events.find((event) => event.type === 'approval/end')).not.toHaveProperty('remembered');
  });
});
