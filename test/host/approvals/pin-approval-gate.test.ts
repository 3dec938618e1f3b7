import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../core/events/agent-event.ts';
import type { ToolDefinition } from '../../../core/tools/tool-definition.ts';
import { ApprovalPin } from '../../../host/approvals/approval-pin.ts';
import { PersonApprovalGate, type ApprovalPolicy } from '../../../host/approvals/person-approval-gate.ts';
import { openDatabase } from '../../../host/store/open-database.ts';
import { StandingApprovalStore } from '../../../host/store/standing-approval-store.ts';
import { TempStoreFolder } from '../store/temp-store-folder.ts';

let folder: TempStoreFolder;
beforeEach(() => {
  folder = new TempStoreFolder();
});
afterEach(() => folder.dispose());

const tool = (name: string, options: { needsApproval?: boolean; readOnly?: boolean } = {}): ToolDefinition => ({
  name,
  description: name,
  parameters: { type: 'object', properties: { device_id: { type: 'string' } } },
  ...options,
  handler: () => 'ok',
});
const LOCK_SET = tool('lock__set');
const RELAY_SET = tool('relay__set', { needsApproval: true });

/** A gate on a real store, with the folder's PIN set to 2468, and the events it emits. */
function setup(policy: ApprovalPolicy = 'ask') {
  const db = folder.own(openDatabase({ file: folder.file() }));
  const pin = new ApprovalPin({ db });
  pin.set({ pin: '2468' });
  const standing = new StandingApprovalStore({ db });
  const events: AgentEvent[] = [];
  const gate = new PersonApprovalGate({
    policy,
    emit: (event) => events.push(event),
    standing,
    pin,
    targetOf: (toolName, args) => ({ tool: toolName, deviceId: String(args['device_id']) }),
  });
  let call = 0;
  const ask = (definition: ToolDefinition, deviceId: string) =>
    gate.gate({
      conversationId: 'c',
      turnId: 't',
      batchId: 'b',
      callId: `call-${call}`,
      index: call++,
      tool: definition,
      args: { device_id: deviceId },
      signal: new AbortController().signal,
    });
  const question = () => {
    const requests = events.filter((event) => event.type === 'approval/request');
    return requests[requests.length - 1] as Extract<AgentEvent, { type: 'approval/request' }>;
  };
  return { gate, pin, standing, events, ask, question };
}

describe('PersonApprovalGate with the approval PIN', () => {
  it('asks for a lock’s action even though its tool declares no approval, and says the PIN is needed', async () => {
    const { gate, ask, question } = setup();
    const decided = ask(LOCK_SET, 'lock-1');
    expect(question()).toMatchObject({ name: 'lock__set', deviceId: 'lock-1', needsPin: true });
    expect(gate.answer({ approvalId: question().approvalId!, approved: true })).toBe(false);
    expect(gate.verifyPin([question().approvalId!], '1111')).toContain('Wrong PIN: 4 tries left');
    expect(gate.answer({ approvalId: question().approvalId!, approved: true })).toBe(false);
    expect(gate.verifyPin([question().approvalId!], '2468')).toBeUndefined();
    expect(gate.answer({ approvalId: question().approvalId!, approved: true })).toBe(true);
    expect(await decided).toBe(true);
  });

  it('denies a PIN call without the PIN', async () => {
    const { gate, ask, question } = setup();
    const decided = ask(LOCK_SET, 'lock-1');
    expect(gate.answer({ approvalId: question().approvalId!, approved: false })).toBe(true);
    expect(await decided).toBe(false);
  });

  it('never remembers "Always allow" for a PIN call', async () => {
    const { gate, standing, ask, question, events } = setup();
    const decided = ask(LOCK_SET, 'lock-1');
    gate.verifyPin([question().approvalId!], '2468');
    gate.answer({ approvalId: question().approvalId!, approved: true, remember: true });
    expect(await decided).toBe(true);
    expect(standing.list()).toEqual([]);
    expect(events.find((event) => event.type === 'approval/end')).not.toHaveProperty('remembered');
  });

  it('stops letting a standing approval cover an action once it needs the PIN', async () => {
    const { gate, pin, standing, ask, question, events } = setup();
    standing.add({ tool: 'relay__set', deviceId: 'relay-1' });
    expect(await ask(RELAY_SET, 'relay-1')).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'approval/end', why: 'standing' });
    pin.marks.setMark({ deviceId: 'relay-1', action: 'set', needsPin: true });
    const decided = ask(RELAY_SET, 'relay-1');
    expect(question()).toMatchObject({ deviceId: 'relay-1', needsPin: true });
    gate.answer({ approvalId: question().approvalId!, approved: false });
    expect(await decided).toBe(false);
  });

  it('checks the PIN once for an "Allow all" naming several questions, and only those that need it', async () => {
    const { gate, ask, events } = setup();
    const lock = ask(LOCK_SET, 'lock-1');
    const relay = ask(RELAY_SET, 'relay-1');
    const ids = events.flatMap((event) => (event.type === 'approval/request' ? [event.approvalId!] : []));
    expect(gate.verifyPin(ids, undefined)).toContain('needs the PIN');
    expect(gate.answer({ approvalId: ids[1]!, approved: true })).toBe(true);
    expect(gate.answer({ approvalId: ids[0]!, approved: true })).toBe(false);
    expect(gate.verifyPin(ids, '2468')).toBeUndefined();
    expect(gate.answer({ approvalId: ids[0]!, approved: true })).toBe(true);
    expect([await lock, await relay]).toEqual([true, true]);
  });

  it('refuses a PIN call at once, saying why, when the caller allowed everything in advance', async () => {
    const { ask, events } = setup('allow');
    expect(await ask(LOCK_SET, 'lock-1')).toMatchObject({
      approved: false,
      detail: expect.stringContaining('needs the approval PIN'),
    });
    expect(await ask(RELAY_SET, 'relay-1')).toBe(true);
    expect(events.filter((event) => event.type === 'approval/request')).toEqual([]);
  });

  it('refuses a PIN call at once when no PIN is set, saying to set one in Settings', async () => {
    const { pin, ask } = setup();
    pin.remove('2468');
    expect(await ask(LOCK_SET, 'lock-1')).toMatchObject({
      approved: false,
      hint: expect.stringContaining('Approval PIN in Settings'),
    });
  });

  it('lets what only reads a lock pass unasked', async () => {
    const { ask, events } = setup();
    expect(await ask(tool('lock__get', { readOnly: true }), 'lock-1')).toBe(true);
    expect(events).toEqual([]);
  });
});
