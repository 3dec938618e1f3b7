import { afterEach, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHost, type Host } from '../../host/app/create-host.ts';
import type { ApprovalPolicy } from '../../host/approvals/person-approval-gate.ts';
import { DeviceRegistry } from '../../devices/registry/device-registry.ts';
import { createDevicesPlugin } from '../../devices/tools/devices-plugin.ts';
import { startSimulatedDevices } from '../../devices/simulator/start-simulated-devices.ts';
import { ScriptedModel, type Script } from '../../core/models/scripted/scripted-model.ts';
import type { AgentEvent } from '../../core/events/agent-event.ts';
import { describeBoards } from '../helpers/avr/boards-describe.ts';
import { startLinkedBoard } from '../helpers/avr/linked-board.ts';
import { builtinWaysIn } from '../../devices/ways-in/builtin-ways-in.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

// ATmega328P data-space addresses (datasheet, register summary).
const OCR1AL = 0x88; // Timer1 compare A: pin 9's PWM duty
const PORTD = 0x2b; // pins 0–7 as outputs

async function hostWith(options: {
  paths: string[];
  replies: Script['replies'];
  approvalPolicy?: ApprovalPolicy;
}): Promise<{ host: Host; events: AgentEvent[] }> {
  const registry = new DeviceRegistry({ waysIn: builtinWaysIn() });
  cleanups.push(() => registry.dispose());
  for (const devicePath of options.paths) await registry.attach(devicePath, { grant: 'all' });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'home-agent-board-batch-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const host = await createHost({
    dataDir,
    transport: 'web',
    model: new ScriptedModel({ replies: options.replies }),
    ...(options.approvalPolicy ? { approvalPolicy: options.approvalPolicy } : {}),
    devices: { plugin: createDevicesPlugin(registry), displayChannels: () => [], list: () => [], dispose: async () => {} },
    log: () => {},
    version: 'test',
  });
  cleanups.push(() => host.dispose());
  const events: AgentEvent[] = [];
  host.events.subscribe((event) => events.push(event));
  return { host, events };
}

function toolEnds(events: AgentEvent[]) {
  return events.filter((event) => event.type === 'tool/end');
}

describeBoards('simulated Unos in the agent’s batches', () => {
  it('runs one parallel batch across two Unos flashed from one example and a simulated lamp, and refuses a call too long for the board without sending it', async () => {
    const first = await startLinkedBoard({ example: 'Lamp' });
    cleanups.push(() => first.close());
    const second = await startLinkedBoard({ example: 'Lamp', id: 'uno-lamp-2' });
    cleanups.push(() => second.close());
    const sim = await startSimulatedDevices({ kinds: ['lamp'], latencyMs: 0 });
    cleanups.push(() => sim.close());
    const { host, events } = await hostWith({
      paths: [first.path, second.path, sim.devices[0]!.path],
      replies: [
        {
          toolCalls: [
            { name: 'lamp__set', args: { device_id: 'lamp-1', on: true } },
            { name: 'lamp__set', args: { device_id: 'uno-lamp-1', on: true, brightness: 60 } },
            { name: 'lamp__set', args: { device_id: 'uno-lamp-2', on: true, brightness: 20 } },
          ],
        },
        { toolCalls: [{ name: 'lamp__set', args: { device_id: 'uno-lamp-1', on: false, note: 'x'.repeat(200) } }] },
        { toolCalls: [{ name: 'lamp__get', args: { device_id: 'uno-lamp-1' } }] },
        { text: 'done' },
      ],
    });
    // The simulated lamp (index 0) holds its answer until both Unos have answered: a serial batch
    // would wait for it forever, so this turn ends only if the three calls were in flight together.
    const release = sim.devices[0]!.firmware.hold();
    host.events.subscribe(() => {
      const firstBatch = events.find((event) => event.type === 'batch/start')?.batchId;
      const unos = toolEnds(events).filter((end) => end.batchId === firstBatch && end.index > 0);
      if (unos.length === 2) release();
    });

    const outcome = await host.agent.runTurn({ conversationId: 'boards', text: 'lamps on' });
    expect(outcome.reason).toBe('done');
    expect(events.find((event) => event.type === 'batch/start')).toMatchObject({ mode: 'parallel' });
    const ends = toolEnds(events);
    // Both Unos answered (in either order) while the simulated lamp still held its answer.
    expect(ends[2]?.index).toBe(0);
    expect(ends.slice(0, 3).map((end) => [end.index, end.ok, end.result])).toEqual(
      expect.arrayContaining([
        [0, true, { device_id: 'lamp-1', result: { on: true, brightness: 100 } }],
        [1, true, { device_id: 'uno-lamp-1', result: { on: true, brightness: 60 } }],
        [2, true, { device_id: 'uno-lamp-2', result: { on: true, brightness: 20 } }],
      ]),
    );
    // Each board dimmed its own LED: 60% and 20% of 255.
    expect(await first.board.peek(OCR1AL)).toBe(153);
    expect(await second.board.peek(OCR1AL)).toBe(51);

    // 200 bytes of arguments do not fit the 128 bytes the board reads: refused before sending, nothing changed.
    expect(ends[3]).toMatchObject({ ok: false, error: { reason: 'failed', detail: expect.stringContaining('128') } });
    expect(ends[4]).toMatchObject({ ok: true, result: { device_id: 'uno-lamp-1', result: { on: true, brightness: 60 } } });
  }, 60_000);

  it('asks the person before the Relay example switches, because its set declares confirm', async () => {
    const relay = await startLinkedBoard({ example: 'Relay' });
    cleanups.push(() => relay.close());
    const { host, events } = await hostWith({
      paths: [relay.path],
      approvalPolicy: 'ask',
      replies: [
        { toolCalls: [{ name: 'relay__set', args: { device_id: 'uno-relay-1', channel: 3, on: true } }] },
        { text: 'done' },
      ],
    });
    let relaysWhileAsking: number | undefined;
    host.events.subscribe((event) => {
      if (event.type !== 'approval/request') return;
      void relay.board.peek(PORTD).then((portd) => {
        relaysWhileAsking = portd & 0xf0;
        void host.handlers['approval/answer']({ approvalId: event.approvalId!, approved: true });
      });
    });
    await host.agent.runTurn({ conversationId: 'relay', text: 'switch on relay 3' });
    // While the person was being asked, nothing had switched.
    expect(relaysWhileAsking).toBe(0);
    expect(events.find((event) => event.type === 'approval/request')).toMatchObject({ name: 'relay__set' });
    expect(toolEnds(events)[0]).toMatchObject({
      ok: true,
      result: { device_id: 'uno-relay-1', result: { channel: 3, on: true } },
    });
    // Channel 3 is pin 6 (PD6); the other relays stay off.
    expect((await relay.board.peek(PORTD)) & 0xf0).toBe(0x40);
  }, 60_000);
});
