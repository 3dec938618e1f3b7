import { describe, expect, it } from 'vitest';
import { agentRig } from '../../helpers/agent-rig.ts';
import { type AgentSettings } from '../../../core/agent/agent.ts';
import { ScriptedModel, type Script } from '../../../core/models/scripted/scripted-model.ts';
import type { ToolDefinition } from '../../../core/tools/tool-definition.ts';
import { TOOL_ORDER_REST } from '../../../core/tools/order-tools.ts';

function tool(name: string): ToolDefinition {
  return {
    name,
    description: `the ${name} tool`,
    parameters: { type: 'object', properties: {} },
    parallelSafe: true,
    handler: () => name,
  };
}

/** One plugin per tool, registered in the given order, so registration order is the only variable. */
function setup(options: { toolNames: readonly string[]; settings: AgentSettings; script?: Script }) {
  const model = new ScriptedModel(options.script ?? { replies: [{ text: 'ok' }] });
  let ids = 0;
  const { agent, events, store } = agentRig({
    model,
    plugins: options.toolNames.map((name) => ({
      name: `plugin-${name}`,
      description: name,
      tools: () => [tool(name)],
    })),
    settings: () => options.settings,
    newId: () => `id-${ids++}`,
  });
  return { agent, events, model, store };
}

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}

const FIVE = ['lamp__set', 'output_send__chat', 'Lamp_status', '_debug', 'a_thermo'];

describe('Agent tool order', () => {
  it('fails the turn at assembly when toolOrder lists an unknown name: balanced, no step, no header, no request', async () => {
    const { agent, events, model } = setup({
      toolNames: ['a', 'b'],
      settings: { toolOrder: ['a', TOOL_ORDER_REST, 'lamp__sett'] },
    });
    const outcome = await agent.runTurn({ conversationId: 'c1', text: 'hi' });
    expect(outcome.reason).toBe('error');
    expect(outcome.error).toMatch(/'lamp__sett'/);
    const types = events.map((event) => event.type);
    expect(types).toEqual(['turn/start', 'agent/error', 'turn/end']);
    const agentError = events.find((event) => event.type === 'agent/error');
    const turnEnd = events.find((event) => event.type === 'turn/end');
    expect(turnEnd).toMatchObject({ reason: 'error', error: outcome.error });
    expect(agentError).toMatchObject({ message: outcome.error });
    expect(model.requests).toEqual([]);
    expect(agent.isBusy('c1')).toBe(false);

    // Every later turn fails the same way until the configuration is fixed; the agent lives on.
    const again = await agent.runTurn({ conversationId: 'c1', text: 'again' });
    expect(again).toMatchObject({ reason: 'error', error: outcome.error });
    expect(model.requests).toEqual([]);
    expect(events.filter((event) => event.type === 'step/start' || event.type === 'request/header')).toEqual([]);
    expect(agent.isBusy('c1')).toBe(false);
  });

  it('fails the turn the same way when a tool is named like the rest entry', async () => {
    const { agent, events, model } = setup({ toolNames: ['a', TOOL_ORDER_REST], settings: {} });
    const outcome = await agent.runTurn({ conversationId: 'c1', text: 'hi' });
    expect(outcome.reason).toBe('error');
    expect(outcome.error).toContain(TOOL_ORDER_REST);
    expect(events.map((event) => event.type)).toEqual(['turn/start', 'agent/error', 'turn/end']);
    expect(model.requests).toEqual([]);
    expect(agent.isBusy('c1')).toBe(false);
  });

  it('keeps an omitted toolOrder absent: lexicographic order, not an empty list that would fail', async () => {
    for (const settings of [{}, { toolOrder: undefined }] as AgentSettings[]) {
      const { agent, events, model } = setup({ toolNames: ['b', 'a', 'B'], settings });
      const outcome = await agent.runTurn({ conversationId: 'c1', text: 'hi' });
      expect(outcome.reason).toBe('done');
      expect(events.find((event) => event.type === 'request/header')).toMatchObject({ tools: ['B', 'a', 'b'] });
      expect(model.requests[0]?.tools.map((sent) => sent.name)).toEqual(['B', 'a', 'b']);
    }
  });

  it('sends exactly the order it records in request/header', async () => {
    const { agent, events, model } = setup({
      toolNames: FIVE,
      settings: { toolOrder: ['output_send__chat', TOOL_ORDER_REST, '_debug'] },
    });
    await agent.runTurn({ conversationId: 'c1', text: 'hi' });
    const expected = ['output_send__chat', 'Lamp_status', 'a_thermo', 'lamp__set', '_debug'];
    expect(events.find((event) => event.type === 'request/header')).toMatchObject({ tools: expected });
    expect(model.requests[0]?.tools.map((sent) => sent.name)).toEqual(expected);
  });

  for (const [label, settings, expected] of [
    ['without toolOrder', {}, ['Lamp_status', '_debug', 'a_thermo', 'lamp__set', 'output_send__chat']],
    [
      'with toolOrder',
      { toolOrder: ['output_send__chat', TOOL_ORDER_REST, '_debug'] },
      ['output_send__chat', 'Lamp_status', 'a_thermo', 'lamp__set', '_debug'],
    ],
  ] as [string, AgentSettings, string[]][]) {
    it(`never lets registration order show (${label}): all 120 permutations give byte-identical headers and requests`, async () => {
      const orders = permutations(FIVE);
      expect(orders).toHaveLength(120);
      const headers = new Set<string>();
      const requests = new Set<string>();
      for (const order of orders) {
        const { agent, events, model } = setup({ toolNames: order, settings });
        const outcome = await agent.runTurn({ conversationId: 'c1', text: 'hi' });
        expect(outcome.reason).toBe('done');
        const header = events.find((event) => event.type === 'request/header');
        if (header?.type !== 'request/header') throw new Error('no request/header');
        expect(header.tools).toEqual(expected);
        const { at: _at, ...stable } = header;
        headers.add(JSON.stringify(stable));
        requests.add(JSON.stringify(model.requests));
      }
      expect(headers.size).toBe(1);
      expect(requests.size).toBe(1);
    });
  }
});
