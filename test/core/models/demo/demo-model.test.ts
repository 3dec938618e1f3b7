import { describe, expect, it } from 'vitest';
import { planDemoReply, DemoModel, DEMO_MODEL_LABEL } from '../../../../core/models/demo/demo-model.ts';
import type { ModelTool } from '../../../../core/models/model-adapter.ts';
import type { ConversationMessage } from '../../../../core/models/conversation-message.ts';

const deviceTool = (name: string, ids: string[]): ModelTool => ({
  name,
  description: name,
  parameters: { type: 'object', properties: { device_id: { type: 'string', enum: ids } } },
});
const TOOLS: ModelTool[] = [
  deviceTool('lamp__get', ['lamp-1', 'lamp-2']),
  deviceTool('lamp__set', ['lamp-1', 'lamp-2']),
  deviceTool('thermometer__read', ['thermometer-1']),
  {
    name: 'output_send__display_1',
    description: 'display',
    parameters: { type: 'object', properties: { text: { type: 'string' } } },
  },
];

function reply(messages: ConversationMessage[]) {
  return planDemoReply({ system: '', messages, tools: TOOLS });
}

describe('the demo model', () => {
  it('puts every independent call of "turn on all lamps and show the temperature on the display" into one reply', () => {
    const first = reply([{ role: 'user', text: 'Turn on all lamps and show the temperature on the display' }]);
    expect(first.calls).toEqual([
      { name: 'lamp__set', args: { device_id: 'lamp-1', on: true } },
      { name: 'lamp__set', args: { device_id: 'lamp-2', on: true } },
      { name: 'thermometer__read', args: { device_id: 'thermometer-1' } },
    ]);
  });

  it('shows the reading on the display in a second reply, once the reading is known, then sums up in words', () => {
    const history: ConversationMessage[] = [
      { role: 'user', text: 'show the temperature on the display' },
      {
        role: 'assistant',
        text: '',
        toolCalls: [{ id: 'c0', name: 'thermometer__read', args: { device_id: 'thermometer-1' } }],
      },
      {
        role: 'tool',
        toolCallId: 'c0',
        toolName: 'thermometer__read',
        content: '{"device_id":"thermometer-1","result":{"celsius":19.5,"humidity":40}}',
        isError: false,
      },
    ];
    const second = reply(history);
    expect(second.calls).toEqual([{ name: 'output_send__display_1', args: { text: 'Temperature 19.5 °C' } }]);
    const third = reply([
      ...history,
      {
        role: 'assistant',
        text: '',
        toolCalls: [{ id: 'c1', name: 'output_send__display_1', args: { text: 'Temperature 19.5 °C' } }],
      },
      {
        role: 'tool',
        toolCallId: 'c1',
        toolName: 'output_send__display_1',
        content: '{"shown":"Temperature 19.5 °C"}',
        isError: false,
      },
    ]);
    expect(third).toEqual({
      text: 'Done.\n- thermometer-1 reads 19.5 °C, 40 % humidity\n- the display shows "Temperature 19.5 °C"',
      calls: [],
    });
  });

  it('targets only the lamp a person names, and reads failures out plainly', () => {
    expect(reply([{ role: 'user', text: 'turn off lamp 2' }]).calls).toEqual([
      { name: 'lamp__set', args: { device_id: 'lamp-2', on: false } },
    ]);
    const failed = reply([
      { role: 'user', text: 'turn off lamp 2' },
      {
        role: 'assistant',
        text: '',
        toolCalls: [{ id: 'c0', name: 'lamp__set', args: { device_id: 'lamp-2', on: false } }],
      },
      {
        role: 'tool',
        toolCallId: 'c0',
        toolName: 'lamp__set',
        content: '{"error":{"reason":"device_offline","detail":"lamp-2: port lost"}}',
        isError: true,
      },
    ]);
    // Never "Done." for an action that failed (issue 10).
    expect(failed.text).toBe('That did not work.\n- lamp-2 failed: lamp-2: port lost');
  });

  it('explains what it can do when it understands nothing, and says it is no AI', async () => {
    const help = reply([{ role: 'user', text: 'write me a poem' }]);
    expect(help.calls).toEqual([]);
    expect(help.text).toContain('no AI');
    const model = new DemoModel();
    expect(model.label).toBe(DEMO_MODEL_LABEL);
    expect(DEMO_MODEL_LABEL).toBe('Demo model — no AI');
  });
});
