import { describe, expect, it } from 'vitest';
import { planDemoReply } from '../../../../core/models/demo/demo-model.ts';
import type { ModelTool } from '../../../../core/models/model-adapter.ts';
import type { JsonSchema } from '../../../../core/tools/json-schema.ts';
import type { ConversationMessage } from '../../../../core/models/conversation-message.ts';

/** A device tool as the devices plugin describes it: the action's text, then `Devices: …` (aliases quoted). */
function deviceTool(name: string, devices: string[]): ModelTool {
  const ids = devices.map((device) => device.split(' ')[0]!);
  // The lamp's own declaration (devices/simulator): on, and brightness 0–100.
  const own: Record<string, JsonSchema> =
    name === 'lamp__set'
      ? { on: { type: 'boolean' }, brightness: { type: 'integer', minimum: 0, maximum: 100 } }
      : name === 'display__show'
        ? { text: { type: 'string' } }
        : {};
  return {
    name,
    description: `${name} of the device. Devices: ${devices.join(', ')}.`,
    parameters: { type: 'object', properties: { device_id: { type: 'string', enum: ids }, ...own } },
  };
}

/** The tools of `--sim` with every action granted. */
const SIM: ModelTool[] = [
  deviceTool('display__show', ['display-1']),
  deviceTool('lamp__get', ['lamp-1', 'lamp-2']),
  deviceTool('lamp__set', ['lamp-1', 'lamp-2']),
  {
    name: 'output_send__display_1',
    description: 'send to the display',
    parameters: { type: 'object', properties: { text: { type: 'string' } } },
  },
  deviceTool('thermometer__read', ['thermometer-1']),
];
/** `set` revoked on both lamps: only `get` is left. */
const SET_REVOKED = SIM.filter((tool) => tool.name !== 'lamp__set');
/** `set` granted on lamp-1 only. */
const SET_ON_LAMP_1 = SIM.map((tool) => (tool.name === 'lamp__set' ? deviceTool('lamp__set', ['lamp-1']) : tool));
/** lamp-1 has the alias "Kitchen". */
const WITH_ALIAS = SIM.map((tool) =>
  tool.name.startsWith('lamp__') ? deviceTool(tool.name, ['lamp-1 ("Kitchen")', 'lamp-2']) : tool,
);

function first(text: string, tools: ModelTool[] = SIM) {
  return planDemoReply({ system: '', messages: [{ role: 'user', text }], tools });
}

/** Every request of the table: what the person says, the calls the planner makes, and its words — written by hand. */
const FIRST_REPLIES: {
  request: string;
  tools?: ModelTool[];
  calls: { name: string; args: Record<string, unknown> }[];
  text: string;
}[] = [
  {
    request: 'turn on all lamps',
    calls: [
      { name: 'lamp__set', args: { device_id: 'lamp-1', on: true } },
      { name: 'lamp__set', args: { device_id: 'lamp-2', on: true } },
    ],
    text: 'Switching lamp-1 and lamp-2 on.',
  },
  {
    request: 'turn everything off',
    calls: [
      { name: 'lamp__set', args: { device_id: 'lamp-1', on: false } },
      { name: 'lamp__set', args: { device_id: 'lamp-2', on: false } },
    ],
    text: 'Switching lamp-1 and lamp-2 off.',
  },
  {
    request: 'set lamp-2 to 30% brightness',
    calls: [{ name: 'lamp__set', args: { device_id: 'lamp-2', brightness: 30 } }],
    text: 'Setting lamp-2 to 30 % brightness.',
  },
  {
    request: 'turn off the kitchen lamp',
    calls: [],
    text: 'I know no lamp called "kitchen". The lamps I may use are lamp-1 and lamp-2: name one of them, e.g. "turn off lamp-1".',
  },
  {
    request: 'turn off the kitchen lamp',
    tools: WITH_ALIAS,
    calls: [{ name: 'lamp__set', args: { device_id: 'lamp-1', on: false } }],
    text: 'Switching Kitchen off.',
  },
  {
    request: 'turn on lamp 1',
    tools: SET_REVOKED,
    calls: [],
    text: 'I may not switch lamp-1: its set action is not granted to me. Grant it in the Devices tab, or run: home-agent devices grant lamp-1 set',
  },
  {
    request: 'turn on all lamps',
    tools: SET_ON_LAMP_1,
    calls: [{ name: 'lamp__set', args: { device_id: 'lamp-1', on: true } }],
    text: 'Switching lamp-1 on. I may not switch lamp-2: its set action is not granted to me. Grant it in the Devices tab, or run: home-agent devices grant lamp-2 set',
  },
  {
    request: 'turn on lamp 3',
    calls: [],
    text: 'There is no lamp-3. The lamps I may use are lamp-1 and lamp-2.',
  },
  {
    request: 'turn on the heater',
    calls: [],
    text: 'There is no heater among the devices I may use (display-1, lamp-1, lamp-2, thermometer-1).',
  },
  {
    request: 'turn on the thermometer',
    calls: [],
    text: 'I cannot switch thermometer-1: the only action I may use on it is read. If it has another, grant it in the Devices tab.',
  },
  {
    request: 'set lamp 1 to 150% brightness',
    calls: [],
    text: 'Brightness goes from 0 to 100 %, so I did not send 150 %.',
  },
  {
    request: 'what is the temperature?',
    calls: [{ name: 'thermometer__read', args: { device_id: 'thermometer-1' } }],
    text: 'Reading thermometer-1.',
  },
  {
    request: 'is lamp 2 on?',
    calls: [{ name: 'lamp__get', args: { device_id: 'lamp-2' } }],
    text: 'Reading lamp-2.',
  },
  {
    request: 'turn on all lamps and show the temperature on the display',
    calls: [
      { name: 'lamp__set', args: { device_id: 'lamp-1', on: true } },
      { name: 'lamp__set', args: { device_id: 'lamp-2', on: true } },
      { name: 'thermometer__read', args: { device_id: 'thermometer-1' } },
    ],
    text: 'Switching lamp-1 and lamp-2 on. Reading thermometer-1, then showing it on the display.',
  },
];

describe('the demo planner’s first reply', () => {
  for (const entry of FIRST_REPLIES) {
    const where =
      entry.tools === SET_REVOKED
        ? ' (set revoked)'
        : entry.tools === SET_ON_LAMP_1
          ? ' (set on lamp-1 only)'
          : entry.tools === WITH_ALIAS
            ? ' (lamp-1 is "Kitchen")'
            : '';
    it(`answers "${entry.request}"${where} honestly`, () => {
      expect(first(entry.request, entry.tools)).toEqual({ text: entry.text, calls: entry.calls });
    });
  }

  it('explains what it can do when it understands nothing, and says it is no AI', () => {
    const help = first('write me a poem');
    expect(help.calls).toEqual([]);
    expect(help.text).toContain('no AI');
  });
});

/** A finished turn: the request, the calls the planner made, and what each call answered. */
function afterResults(
  request: string,
  results: { name: string; args: Record<string, unknown>; content: string; isError?: boolean }[],
  tools: ModelTool[] = SIM,
) {
  const messages: ConversationMessage[] = [
    { role: 'user', text: request },
    {
      role: 'assistant',
      text: '',
      toolCalls: results.map((result, index) => ({ id: `c${index}`, name: result.name, args: result.args })),
    },
    ...results.map((result, index): ConversationMessage => ({
      role: 'tool',
      toolCallId: `c${index}`,
      toolName: result.name,
      content: result.content,
      isError: result.isError === true,
    })),
  ];
  return planDemoReply({ system: '', messages, tools });
}

const lampOn = (id: string) => ({
  name: 'lamp__set',
  args: { device_id: id, on: true },
  content: `{"device_id":"${id}","result":{"on":true,"brightness":100}}`,
});

describe('the demo planner’s last reply', () => {
  it('says Done only when every action it took succeeded, and what each device is now', () => {
    expect(afterResults('turn on all lamps', [lampOn('lamp-1'), lampOn('lamp-2')])).toEqual({
      text: 'Done.\n- lamp-1 is on at 100 %\n- lamp-2 is on at 100 %',
      calls: [],
    });
  });

  it('reports a brightness change with the state the lamp answered', () => {
    expect(
      afterResults('set lamp-2 to 30% brightness', [
        {
          name: 'lamp__set',
          args: { device_id: 'lamp-2', brightness: 30 },
          content: '{"device_id":"lamp-2","result":{"on":false,"brightness":30}}',
        },
      ]).text,
    ).toBe('Done.\n- lamp-2 is off (brightness 30 %)');
  });

  it('never says Done when a call did not reach its device, and says the device did not act', () => {
    const reply = afterResults('turn on all lamps', [
      lampOn('lamp-1'),
      {
        name: 'lamp__set',
        args: { device_id: 'lamp-2', on: true },
        isError: true,
        content:
          '{"error":{"reason":"device_offline","detail":"lamp-2: port lost","hint":"retry once the device is back"},"outcome":"not_sent","note":"Nothing was sent: the device did not act."}',
      },
    ]);
    expect(reply.text).toBe(
      'Not everything worked.\n- lamp-1 is on at 100 %\n- lamp-2 was not switched: lamp-2: port lost (nothing was sent, it did not act)',
    );
  });

  it('says a device may have acted when its answer never came', () => {
    const reply = afterResults('turn on lamp 2', [
      {
        name: 'lamp__set',
        args: { device_id: 'lamp-2', on: true },
        isError: true,
        content:
          '{"error":{"reason":"timeout","detail":"lamp__set did not finish within 30000 ms"},"outcome":"unknown","note":"The request left for the device but no answer came: it may have acted."}',
      },
    ]);
    expect(reply.text).toBe(
      'That did not work.\n- lamp-2: no answer came (lamp__set did not finish within 30000 ms); it may have acted, so its state is unknown',
    );
  });

  it('passes on the device’s own error when it refused', () => {
    const reply = afterResults('turn on lamp 2', [
      {
        name: 'lamp__set',
        args: { device_id: 'lamp-2', on: true },
        isError: true,
        content: '{"error":{"reason":"failed","detail":"lamp-2: relay stuck"}}',
      },
    ]);
    expect(reply.text).toBe('That did not work.\n- lamp-2 failed: lamp-2: relay stuck');
  });

  it('says so when the person did not allow a call', () => {
    const reply = afterResults('turn on lamp 2', [
      {
        name: 'lamp__set',
        args: { device_id: 'lamp-2', on: true },
        isError: true,
        content:
          '{"error":{"reason":"denied","detail":"The person did not allow lamp__set to run.","hint":"Do not retry it; ask the person what they want instead."}}',
      },
    ]);
    expect(reply.text).toBe('That did not work.\n- lamp-2 was not switched: you did not allow it');
  });

  it('repeats what it refused beside what it did', () => {
    const reply = afterResults('turn on all lamps', [lampOn('lamp-1')], SET_ON_LAMP_1);
    expect(reply.text).toBe(
      'Not everything worked.\n- lamp-1 is on at 100 %\n- I may not switch lamp-2: its set action is not granted to me. Grant it in the Devices tab, or run: home-agent devices grant lamp-2 set',
    );
  });

  it('names a device as the person named it ("Desk lamp"), not by its id', () => {
    const desk = SIM.map((tool) =>
      tool.name.startsWith('lamp__') ? deviceTool(tool.name, ['lamp-1 ("Desk lamp")', 'lamp-2']) : tool,
    );
    expect(first('turn on lamp 1', desk)).toEqual({
      text: 'Switching Desk lamp on.',
      calls: [{ name: 'lamp__set', args: { device_id: 'lamp-1', on: true } }],
    });
    expect(afterResults('turn on lamp 1', [lampOn('lamp-1')], desk).text).toBe('Done.\n- Desk lamp is on at 100 %');
  });

  it('answers a question with the reading alone (nothing was done, so no Done)', () => {
    const reply = afterResults('what is the temperature?', [
      {
        name: 'thermometer__read',
        args: { device_id: 'thermometer-1' },
        content: '{"device_id":"thermometer-1","result":{"celsius":21.5,"humidity":45}}',
      },
    ]);
    expect(reply.text).toBe('thermometer-1 reads 21.5 °C, 45 % humidity');
  });
});

describe('the demo model and paired devices it may not use', () => {
  /** The prompt's devices section as the devices plugin writes it (written by hand here). */
  const system = [
    'Devices (pass device_id to device tools):',
    '- display-1 (display): online',
    '- lamp-1 (lamp): online',
    '- lamp-2 (lamp, "Desk lamp"): online; not granted: get',
    '- lamp-3 (lamp): online; not granted: get, set',
    '- thermometer-1 (thermometer): online; not granted: read',
  ].join('\n');
  /** lamp-1 fully granted, lamp-2 only `set`, lamp-3 and the thermometer nothing. */
  const tools = [
    deviceTool('display__show', ['display-1']),
    deviceTool('lamp__get', ['lamp-1']),
    deviceTool('lamp__set', ['lamp-1', 'lamp-2 ("Desk lamp")']),
  ];
  const ask = (text: string) => planDemoReply({ system, messages: [{ role: 'user', text }], tools });

  it('names the grant to give for a paired lamp with no grants, instead of saying there is no such lamp', () => {
    expect(ask('turn on lamp 3')).toEqual({
      text: 'I may not switch lamp-3: its set action is not granted to me. Grant it in the Devices tab, or run: home-agent devices grant lamp-3 set',
      calls: [],
    });
  });

  it('says get is not granted when asked whether a lamp with only set granted is on', () => {
    expect(ask('is the desk lamp on?')).toEqual({
      text: 'I may not get Desk lamp: its get action is not granted to me. Grant it in the Devices tab, or run: home-agent devices grant lamp-2 get',
      calls: [],
    });
  });

  it('says read is not granted on a thermometer it may not read', () => {
    expect(ask('what is the temperature?').text).toBe(
      'I may not read thermometer-1: its read action is not granted to me. Grant it in the Devices tab, or run: home-agent devices grant thermometer-1 read',
    );
  });

  it('still says there is no such lamp when none is paired under that number', () => {
    expect(ask('turn on lamp 7').text).toBe('There is no lamp-7. The lamps I may use are lamp-1 and Desk lamp.');
  });
});
