import { describe, expect, it } from 'vitest';
import { agentRig } from '../../helpers/agent-rig.ts';
import { Agent } from '../../../core/agent/agent.ts';
import { ScriptedModel, type Script } from '../../../core/models/scripted/scripted-model.ts';
import { ToolError } from '../../../core/tools/tool-error.ts';
import type { ToolDefinition } from '../../../core/tools/tool-definition.ts';

/** Two lamps that act on a request at once and never answer it: a slow device stopped mid-call. */
function lampHome(options: { granted?: readonly string[]; getNeedsApproval?: boolean; withGet?: boolean } = {}) {
  const lamps: Record<string, { on: boolean }> = { 'lamp-1': { on: false }, 'lamp-2': { on: false } };
  const started: string[] = [];
  const reads: string[] = [];
  const deviceParameter = { type: 'object', properties: { device_id: { type: 'string' } } } as const;
  const granted = new Set(options.granted ?? Object.keys(lamps));
  const tools: ToolDefinition[] = [
    {
      name: 'lamp__set',
      description: 'switch a lamp',
      parameters: { type: 'object', properties: { device_id: { type: 'string' }, on: { type: 'boolean' } } },
      parallelSafe: true,
      handler: async (args, context) => {
        const lamp = lamps[args.device_id as string]!;
        lamp.on = args.on as boolean;
        started.push(args.device_id as string);
        await new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve()));
        return { device_id: args.device_id, result: { ...lamp } };
      },
    },
  ];
  if (options.withGet !== false) {
    tools.push({
      name: 'lamp__get',
      description: 'read a lamp',
      parameters: deviceParameter,
      parallelSafe: true,
      ...(options.getNeedsApproval ? { needsApproval: true } : {}),
      canUse: (_context, args) =>
        granted.has(args.device_id as string)
          ? null
          : new ToolError({ reason: 'unauthorized', detail: `${String(args.device_id)}: get is not granted` }),
      handler: (args, context) => {
        // The read-back runs after the Stop: its own signal must not be the stopped turn's.
        if (context.signal.aborted) throw new Error('read with an aborted signal');
        reads.push(args.device_id as string);
        return { device_id: args.device_id, result: { ...lamps[args.device_id as string]! } };
      },
    });
  }
  return { lamps, tools, started, reads };
}

function setup(options: { script: Script; tools: ToolDefinition[]; approve?: () => boolean }) {
  return agentRig({
    model: new ScriptedModel(options.script),
    plugins: [{ name: 'lamps', description: 'lamps', tools: () => options.tools }],
    ...(options.approve ? { approve: options.approve } : {}),
  });
}

const bothLampsOn: Script = {
  replies: [
    {
      toolCalls: [
        { name: 'lamp__set', args: { device_id: 'lamp-1', on: true } },
        { name: 'lamp__set', args: { device_id: 'lamp-2', on: true } },
      ],
    },
    { text: 'Done.' },
  ],
};

/** Starts the turn, waits until both lamps received their request, then presses Stop. */
async function stopMidCall(agent: Agent, started: string[], options: { readBack?: boolean } = {}) {
  const running = agent.runTurn({ conversationId: 'c1', text: 'turn on both lamps' });
  await expect.poll(() => started.length).toBe(2);
  agent.abort('c1', options);
  return running;
}

describe('the read-back after a Stop', () => {
  it('reads each device whose call may have acted and reports what it found before turn/end', async () => {
    const home = lampHome();
    const { agent, events } = setup({ script: bothLampsOn, tools: home.tools });
    const outcome = await stopMidCall(agent, home.started);
    expect(outcome.reason).toBe('aborted');
    const types = events.map((event) => event.type);
    const states = events.filter((event) => event.type === 'device/state');
    // The lamps acted: the state read afterwards is the devices' own, not "nothing happened".
    expect(states).toEqual([
      expect.objectContaining({
        deviceId: 'lamp-1',
        tool: 'lamp__get',
        callIds: [expect.any(String)],
        result: { on: true },
      }),
      expect.objectContaining({
        deviceId: 'lamp-2',
        tool: 'lamp__get',
        callIds: [expect.any(String)],
        result: { on: true },
      }),
    ]);
    for (const state of states) expect(state).not.toHaveProperty('error');
    expect(types.lastIndexOf('device/state')).toBeLessThan(types.indexOf('turn/end'));
    expect(types.indexOf('batch/end')).toBeLessThan(types.indexOf('device/state'));
    // Each state names the call it stands for.
    const unknownCalls = events.filter((event) => event.type === 'tool/end' && event.outcome === 'unknown');
    expect(states.flatMap((state) => (state.type === 'device/state' ? state.callIds : []))).toEqual(
      unknownCalls.map((event) => (event.type === 'tool/end' ? event.callId : '')),
    );
    expect(home.reads.sort()).toEqual(['lamp-1', 'lamp-2']);
  });

  it('goes through the CanUse gate: a device whose read is not granted is reported unreadable, not read', async () => {
    const home = lampHome({ granted: ['lamp-1'] });
    const { agent, events } = setup({ script: bothLampsOn, tools: home.tools });
    await stopMidCall(agent, home.started);
    expect(home.reads).toEqual(['lamp-1']);
    const lamp2 = events.find((event) => event.type === 'device/state' && event.deviceId === 'lamp-2');
    expect(lamp2).toMatchObject({ error: { reason: 'unauthorized' } });
    expect(lamp2).not.toHaveProperty('result');
  });

  it('does not ask the person again after they pressed Stop: a read that needs approval is not used', async () => {
    const home = lampHome({ getNeedsApproval: true });
    let asked = 0;
    const { agent, events } = setup({
      script: bothLampsOn,
      tools: home.tools,
      approve: () => {
        asked += 1;
        return true;
      },
    });
    await stopMidCall(agent, home.started);
    expect(home.reads).toEqual([]);
    expect(events.filter((event) => event.type === 'device/state')).toEqual([]);
    // Only the two set calls went past the approval gate (it is asked for every call).
    expect(asked).toBe(2);
  });

  it('reads nothing when the device has no read action, or when the host is shutting down', async () => {
    const withoutGet = lampHome({ withGet: false });
    const first = setup({ script: bothLampsOn, tools: withoutGet.tools });
    await stopMidCall(first.agent, withoutGet.started);
    expect(first.events.filter((event) => event.type === 'device/state')).toEqual([]);
    expect(first.events.at(-1)).toMatchObject({ type: 'turn/end', reason: 'aborted' });

    const shuttingDown = lampHome();
    const second = setup({ script: bothLampsOn, tools: shuttingDown.tools });
    await stopMidCall(second.agent, shuttingDown.started, { readBack: false });
    expect(shuttingDown.reads).toEqual([]);
  });

  it('reads nothing after a turn that ended without a call of unknown outcome', async () => {
    const home = lampHome();
    const { agent, events } = setup({
      script: { replies: [{ toolCalls: [{ name: 'lamp__get', args: { device_id: 'lamp-1' } }] }, { text: 'ok' }] },
      tools: home.tools,
    });
    await agent.runTurn({ conversationId: 'c1', text: 'read lamp 1' });
    expect(events.filter((event) => event.type === 'device/state')).toEqual([]);
  });
});

describe('the read-back of a device with parts', () => {
  it('reads the part each unknown call addressed (a relay channel), once per part', async () => {
    const relay: Record<number, boolean> = { 1: false, 2: false };
    const started: number[] = [];
    const channel = { type: 'integer' } as const;
    const tools: ToolDefinition[] = [
      {
        name: 'relay__set',
        description: 'switch a channel',
        parameters: { type: 'object', properties: { device_id: { type: 'string' }, channel, on: { type: 'boolean' } } },
        parallelSafe: true,
        handler: async (args, context) => {
          relay[args.channel as number] = args.on as boolean;
          started.push(args.channel as number);
          await new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve()));
        },
      },
      {
        name: 'relay__get',
        description: 'read a channel',
        parameters: {
          type: 'object',
          properties: { device_id: { type: 'string' }, channel },
          required: ['channel'],
        },
        handler: (args) => ({
          device_id: args.device_id,
          result: { channel: args.channel, on: relay[args.channel as number] },
        }),
      },
    ];
    const { agent, events } = setup({
      script: {
        replies: [
          {
            toolCalls: [
              { name: 'relay__set', args: { device_id: 'relay-1', channel: 1, on: true } },
              { name: 'relay__set', args: { device_id: 'relay-1', channel: 2, on: true } },
            ],
          },
        ],
      },
      tools,
    });
    const running = agent.runTurn({ conversationId: 'c1', text: 'both relays on' });
    await expect.poll(() => started.length).toBe(2);
    agent.abort('c1');
    await running;
    expect(events.filter((event) => event.type === 'device/state')).toEqual([
      expect.objectContaining({ deviceId: 'relay-1', args: { channel: 1 }, result: { channel: 1, on: true } }),
      expect.objectContaining({ deviceId: 'relay-1', args: { channel: 2 }, result: { channel: 2, on: true } }),
    ]);
  });
});
