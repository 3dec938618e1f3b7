import { describe, expect, it } from 'vitest';
import { createSequencesPlugin } from '../../../../core/plugins/sequences/create-sequences-plugin.ts';
import { InMemorySequenceStore } from '../../../../core/plugins/sequences/in-memory-sequence-store.ts';
import type { ToolApi } from '../../../../core/tools/tool-api.ts';
import { createToolApi } from '../../../../core/batch/create-tool-api.ts';
import { createTestTools } from './sequence-test-kit.ts';

function setUp() {
  const kit = createTestTools();
  const store = new InMemorySequenceStore();
  // The plugin reaches the ToolAPI lazily, as the host wires it: the API lists the plugin's own tools.
  const plugin = createSequencesPlugin({ store, toolApi: () => toolApi, maxCallDepth: 4 });
  const toolApi: ToolApi = createToolApi({ tools: () => [...kit.tools, ...plugin.tools()] });
  const call = (name: string, args: Record<string, unknown>) =>
    toolApi.call({ conversationId: 'conv-1', caller: 'agent', signal: new AbortController().signal }, name, args);
  return { ...kit, store, plugin, call };
}

const readThenSwitch = {
  name: 'read_then_switch',
  description: 'Reads the temperature, then switches the granted lamp on when it is warm.',
  groups: [
    { id: 'read', calls: [{ tool: 'thermo__read', slot: 'reading' }] },
    {
      id: 'act',
      calls: [{ tool: 'lamp__set', when: 'reading.result.celsius > 20', args: { device_id: 'lamp-1', on: true } }],
    },
  ],
};

describe('createSequencesPlugin', () => {
  it('declares six tools; seq_run is serial, the read-only ones are parallel-safe', () => {
    const { plugin } = setUp();
    expect(plugin.name).toBe('sequences');
    expect(plugin.tools().map((tool) => [tool.name, tool.parallelSafe === true, tool.serial === true])).toEqual([
      ['seq_save', false, false],
      ['seq_list', true, false],
      ['seq_show', true, false],
      ['seq_delete', false, false],
      ['seq_check', true, false],
      ['seq_run', false, true],
    ]);
  });

  it('seq_save answers validation errors as ToolErrors naming the field', async () => {
    const { call } = setUp();
    const badCondition = await call('seq_save', {
      ...readThenSwitch,
      groups: [
        readThenSwitch.groups[0],
        { id: 'act', calls: [{ tool: 'echo', when: 'reading.result.celsius.valueOf()' }] },
      ],
    });
    expect(badCondition).toMatchObject({ ok: false, error: { reason: 'type', field: 'groups[1].calls[0].when' } });
    const noId = await call('seq_save', { ...readThenSwitch, groups: [{ calls: [{ tool: 'echo' }] }] });
    expect(noId).toMatchObject({ ok: false, error: { reason: 'required', field: 'groups[0].id' } });
    const runsSequence = await call('seq_save', {
      ...readThenSwitch,
      groups: [{ id: 'g', calls: [{ tool: 'seq_run', args: { name: 'other' } }] }],
    });
    expect(runsSequence).toMatchObject({
      ok: false,
      error: { reason: 'unauthorized', field: 'groups[0].calls[0].tool' },
    });
  });

  it('saves, lists, shows and deletes a sequence', async () => {
    const { call } = setUp();
    expect(await call('seq_save', readThenSwitch)).toEqual({
      ok: true,
      value: { saved: 'read_then_switch', replaced: false },
    });
    expect(await call('seq_save', readThenSwitch)).toEqual({
      ok: true,
      value: { saved: 'read_then_switch', replaced: true },
    });
    const later = {
      name: 'later_tools',
      description: 'Uses a tool that is not plugged in yet.',
      groups: [{ id: 'g', calls: [{ tool: 'heater__set' }] }],
    };
    expect(await call('seq_save', later)).toEqual({
      ok: true,
      value: { saved: 'later_tools', replaced: false, unknown_tools: ['heater__set'] },
    });
    await call('seq_delete', { name: 'later_tools' });
    expect(await call('seq_list', {})).toEqual({
      ok: true,
      value: {
        sequences: [
          {
            name: 'read_then_switch',
            description: readThenSwitch.description,
            groups: 2,
            calls: 2,
            calls_sequences: [],
          },
        ],
      },
    });
    expect(await call('seq_show', { name: 'read_then_switch' })).toEqual({ ok: true, value: readThenSwitch });
    expect(await call('seq_delete', { name: 'read_then_switch' })).toEqual({
      ok: true,
      value: { deleted: 'read_then_switch', called_by: [] },
    });
    expect(await call('seq_show', { name: 'read_then_switch' })).toMatchObject({
      ok: false,
      error: { reason: 'not_found', field: 'name' },
    });
  });

  it('saves two sequences that call each other; seq_check then reports the cycle and seq_run refuses to start', async () => {
    const { call, names } = setUp();
    const ping = {
      name: 'ping',
      description: 'Reads, then calls pong.',
      groups: [
        { id: 'a', calls: [{ tool: 'thermo__read' }] },
        { id: 'b', calls: [{ sequence: 'pong' }] },
      ],
    };
    const pong = { name: 'pong', description: 'Calls ping.', groups: [{ id: 'a', calls: [{ sequence: 'ping' }] }] };
    expect(await call('seq_save', ping)).toEqual({
      ok: true,
      value: { saved: 'ping', replaced: false, graph_problems: ["sequence 'ping' calls 'pong', which does not exist"] },
    });
    expect(await call('seq_save', pong)).toEqual({
      ok: true,
      value: {
        saved: 'pong',
        replaced: false,
        graph_problems: ['sequences call each other in a cycle: pong → ping → pong'],
      },
    });
    expect(await call('seq_check', { name: 'ping' })).toEqual({
      ok: true,
      value: {
        ok: false,
        problems: [
          {
            kind: 'cycle',
            path: ['ping', 'pong', 'ping'],
            message: 'sequences call each other in a cycle: ping → pong → ping',
          },
        ],
      },
    });
    const run = await call('seq_run', { name: 'ping' });
    expect(run).toMatchObject({
      ok: false,
      error: {
        reason: 'failed',
        detail: 'the sequence ping cannot run: sequences call each other in a cycle: ping → pong → ping',
      },
    });
    expect(names()).toEqual([]);
    expect(await call('seq_delete', { name: 'pong' })).toEqual({
      ok: true,
      value: { deleted: 'pong', called_by: ['ping'] },
    });
    expect(await call('seq_check', {})).toMatchObject({
      ok: true,
      value: { ok: false, problems: [{ kind: 'missing', caller: 'ping', target: 'pong' }] },
    });
  });

  it('seq_run runs through the ToolAPI: every call passes the CanUse gate as caller "sequences"', async () => {
    const { call, calls, gateCallers } = setUp();
    await call('seq_save', readThenSwitch);
    const run = await call('seq_run', { name: 'read_then_switch' });
    expect(run).toEqual({
      ok: true,
      value: {
        sequence: 'read_then_switch',
        ok: true,
        groups: [
          {
            id: 'read',
            calls: [{ index: 0, tool: 'thermo__read', slot: 'reading', status: 'ok', result: { celsius: 23 } }],
          },
          {
            id: 'act',
            calls: [{ index: 0, tool: 'lamp__set', status: 'ok', result: { device_id: 'lamp-1', on: true } }],
          },
        ],
      },
    });
    expect(calls.map((entry) => entry.name)).toEqual(['thermo__read', 'lamp__set']);
    expect(gateCallers).toEqual(['sequences']);
  });

  it('tells the model the truth about sequences in its prompt section', () => {
    const { plugin } = setUp();
    const text = plugin.promptSections?.()[0]?.text ?? '';
    expect(text).toContain('groups run one after another');
    expect(text).toContain('calls inside one group run in parallel');
    expect(text).toContain('{"$slot": "reading.result.celsius"}');
    expect(text).toContain('4 sequence calls deep');
    expect(text).toContain(
      'at most 2,000 calls (a call skipped by its condition counts), keep 262,144 bytes of results and take 120,000 ms',
    );
    expect(text).toContain('output_send__*');
    expect(text).toContain('seq_run');
  });
});
