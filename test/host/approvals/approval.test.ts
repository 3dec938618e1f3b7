import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHost, type Host } from '../../../host/app/create-host.ts';
import type { ApprovalPolicy } from '../../../host/approvals/person-approval-gate.ts';
import { DeviceRegistry } from '../../../devices/registry/device-registry.ts';
import { registryDeviceLayer } from '../../helpers/registry-device-layer.ts';
import { startInProcessDevices, type InProcessDevices } from '../../../devices/simulator/start-in-process-devices.ts';
import { ScriptedModel } from '../../../core/models/scripted/scripted-model.ts';
import type { AgentEvent } from '../../../core/events/agent-event.ts';
import type { AgentSettings } from '../../../core/agent/assemble-turn.ts';
import { builtinWaysIn } from '../../../devices/ways-in/builtin-ways-in.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const SWITCH_ON = {
  replies: [
    { toolCalls: [{ name: 'relay__set', args: { device_id: 'relay-1', channel: 1, on: true } }] },
    { text: 'done' },
  ],
};

async function setup(
  policy: ApprovalPolicy,
  settings: AgentSettings = {},
): Promise<{ host: Host; sim: InProcessDevices; events: AgentEvent[] }> {
  const sim = startInProcessDevices({ kinds: ['relay'], latencyMs: 0 });
  cleanups.push(() => sim.close());
  const registry = new DeviceRegistry({ waysIn: builtinWaysIn() });
  for (const device of sim.devices) await registry.attachConnector(device.connector, { grant: 'all' });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'home-agent-approval-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const host = await createHost({
    dataDir,
    transport: 'web',
    model: new ScriptedModel(SWITCH_ON),
    approvalPolicy: policy,
    settings,
    devices: registryDeviceLayer(registry),
    log: () => {},
    version: 'test',
  });
  cleanups.push(() => host.dispose());
  const events: AgentEvent[] = [];
  host.events.subscribe((event) => events.push(event));
  return { host, sim, events };
}

function toolEnd(events: AgentEvent[]) {
  return events.find((event) => event.type === 'tool/end');
}

describe('approval of tools that need the person', () => {
  it('asks through an event, runs the call once the person allows it, and journals both', async () => {
    const { host, events } = await setup('ask');
    host.events.subscribe((event) => {
      if (event.type === 'approval/request')
        void host.handlers['approval/answer']({ approvalId: event.approvalId!, approved: true });
    });
    const outcome = await host.agent.runTurn({ conversationId: 'c1', text: 'switch it on' });
    expect(outcome.reason).toBe('done');
    expect(events.find((event) => event.type === 'approval/request')).toMatchObject({
      name: 'relay__set',
      args: { device_id: 'relay-1', channel: 1, on: true },
    });
    expect(events.find((event) => event.type === 'approval/end')).toMatchObject({ approved: true, why: 'answered' });
    expect(toolEnd(events)).toMatchObject({ ok: true });
    const journal = host.store.loadEvents('c1').map((event) => event.type);
    expect(journal).toContain('approval/request');
    expect(journal).toContain('approval/end');
  });

  it('answers denied when the person says no, and the relay is not switched', async () => {
    const { host, events, sim } = await setup('ask');
    host.events.subscribe((event) => {
      if (event.type === 'approval/request')
        void host.handlers['approval/answer']({ approvalId: event.approvalId!, approved: false });
    });
    await host.agent.runTurn({ conversationId: 'c1', text: 'switch it on' });
    expect(toolEnd(events)).toMatchObject({ ok: false, error: { reason: 'denied' } });
    expect(sim.devices[0]!.firmware.stats.calls).toBe(0);
  });

  it('stops waiting when the turn is aborted, answering the call aborted', async () => {
    const { host, events } = await setup('ask');
    host.events.subscribe((event) => {
      if (event.type === 'approval/request') host.agent.abort('c1');
    });
    const outcome = await host.agent.runTurn({ conversationId: 'c1', text: 'switch it on' });
    expect(outcome.reason).toBe('aborted');
    expect(events.find((event) => event.type === 'approval/end')).toMatchObject({ approved: false, why: 'aborted' });
    expect(toolEnd(events)).toMatchObject({ ok: false, error: { reason: 'aborted' } });
    expect(await host.handlers['approval/answer']({ approvalId: 'nobody', approved: true })).toEqual({
      accepted: false,
      message:
        'No such question is waiting for an answer: it may have been answered elsewhere, timed out, or its turn was stopped.',
    });
  });

  it('denies without asking when nobody can be asked (a script), and allows when approved in advance', async () => {
    const denied = await setup('deny');
    await denied.host.agent.runTurn({ conversationId: 'c1', text: 'switch it on' });
    expect(denied.events.some((event) => event.type === 'approval/request')).toBe(false);
    expect(toolEnd(denied.events)).toMatchObject({ ok: false, error: { reason: 'denied' } });
    const allowed = await setup('allow');
    await allowed.host.agent.runTurn({ conversationId: 'c1', text: 'switch it on' });
    expect(toolEnd(allowed.events)).toMatchObject({ ok: true });
  });
});

describe('approval and the tool timeout', () => {
  it('does not count the time a person takes to answer against the tool timeout', async () => {
    // A tool timeout far shorter than the person's answer: the answer comes only after a timer
    // of three timeouts has fired, so a timeout that still ran during the question would end the call.
    const { host, events } = await setup('ask', { toolTimeoutMs: 200 });
    host.events.subscribe((event) => {
      if (event.type === 'approval/request')
        setTimeout(() => void host.handlers['approval/answer']({ approvalId: event.approvalId!, approved: true }), 600);
    });
    await host.agent.runTurn({ conversationId: 'c1', text: 'switch it on' });
    expect(toolEnd(events)).toMatchObject({ ok: true });
  });
});

describe('approval of tools called by plugins (sequences) through the ToolAPI', () => {
  it('asks the same gate as the agent’s own calls: a script denies, --approve-all allows', async () => {
    const denied = await setup('deny');
    const outcome = await denied.host.toolApi.call(
      { conversationId: 'c1', caller: 'sequences', signal: new AbortController().signal },
      'relay__set',
      { device_id: 'relay-1', channel: 1, on: true },
    );
    expect(outcome).toMatchObject({ ok: false, error: { reason: 'denied' } });
    expect(denied.sim.devices[0]?.firmware.log.some((entry) => entry.tool === 'set')).toBe(false);

    const allowed = await setup('allow');
    const ran = await allowed.host.toolApi.call(
      { conversationId: 'c1', caller: 'sequences', signal: new AbortController().signal },
      'relay__set',
      { device_id: 'relay-1', channel: 1, on: true },
    );
    expect(ran).toMatchObject({ ok: true });
  });
});
