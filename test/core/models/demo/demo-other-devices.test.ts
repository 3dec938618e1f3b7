import { describe, expect, it } from 'vitest';
import { planDemoReply } from '../../../../core/models/demo/demo-model.ts';
import type { ModelTool } from '../../../../core/models/model-adapter.ts';
import type { ConversationMessage } from '../../../../core/models/conversation-message.ts';
import type { JsonSchema } from '../../../../core/tools/json-schema.ts';
import { disabledPluginsSection } from '../../../../core/prompt/disabled-plugins-section.ts';

/** A device tool as the devices plugin lists it: the action's own description, then `Devices: …`, device_id first. */
function deviceTool(
  name: string,
  description: string,
  devices: string[],
  own: Record<string, JsonSchema> = {},
  required: string[] = [],
): ModelTool {
  return {
    name,
    description: `${description} Devices: ${devices.join(', ')}.${devices.length === 1 ? ' device_id may be omitted.' : ''}`,
    parameters: {
      type: 'object',
      properties: { device_id: { type: 'string', enum: devices.map((device) => device.split(' ')[0]!) }, ...own },
      required,
    },
  };
}

// The declarations below are copied by hand from the AT relay profile (devices/profiles), the Eastron
// SDM120 Modbus profile as its `read` describes it, the 8-channel Modbus relay and the simulated door sensor.
const AT_RELAY_SET = deviceTool(
  'relay__set',
  'Switch one relay channel (1–4) on or off.',
  ['relay-1'],
  { channel: { type: 'integer', minimum: 1, maximum: 4 }, on: { type: 'boolean' } },
  ['channel', 'on'],
);
const AT_RELAY_GET = deviceTool(
  'relay__get',
  'Read whether one relay channel (1–4) is on.',
  ['relay-1'],
  { channel: { type: 'integer', minimum: 1, maximum: 4 } },
  ['channel'],
);
const METER = 'sdm120-ttyusb0-u1';
const METER_READ = deviceTool(
  'energy_meter__read',
  'Read Eastron SDM120 energy meter: voltage_v (V), current_a (A), power_w (W), frequency_hz (Hz), energy_kwh (kWh), all in one call.',
  [METER],
);
const LAMPS = [
  deviceTool('lamp__get', 'Read whether the lamp is on and its brightness.', ['lamp-1', 'lamp-2']),
  deviceTool('lamp__set', 'Switch the lamp on or off and/or set its brightness (0–100).', ['lamp-1', 'lamp-2'], {
    on: { type: 'boolean' },
    brightness: { type: 'integer', minimum: 0, maximum: 100 },
  }),
  deviceTool('thermometer__read', 'Read the temperature (°C) and relative humidity (%).', ['thermometer-1']),
];
const RELAY_AND_METER = [AT_RELAY_GET, AT_RELAY_SET, METER_READ];

function first(text: string, tools: ModelTool[], system = '') {
  return planDemoReply({ system, messages: [{ role: 'user', text }], tools });
}

/** Written by hand: the request, the tools granted, the calls the planner must make and what it must say. */
const REPLIES: {
  request: string;
  tools: ModelTool[];
  calls: { name: string; args: Record<string, unknown> }[];
  text: string;
}[] = [
  {
    request: 'switch relay 1 on',
    tools: RELAY_AND_METER,
    calls: [{ name: 'relay__set', args: { device_id: 'relay-1', channel: 1, on: true } }],
    text: 'Switching relay-1 channel 1 on.',
  },
  {
    request: 'turn relay-1 channel 3 off',
    tools: RELAY_AND_METER,
    calls: [{ name: 'relay__set', args: { device_id: 'relay-1', channel: 3, on: false } }],
    text: 'Switching relay-1 channel 3 off.',
  },
  {
    request: 'switch relay 7 on',
    tools: RELAY_AND_METER,
    calls: [],
    text: 'relay-1 has no channel 7 (it has channels 1–4), so I switched nothing.',
  },
  {
    request: 'switch relay-3 on',
    tools: RELAY_AND_METER,
    calls: [],
    text: 'There is no relay-3. The relays I may use are relay-1.',
  },
  {
    request: 'switch the relay on',
    tools: RELAY_AND_METER,
    calls: [],
    text: 'Which channel of relay-1 should I switch on (it has channels 1–4)? Say it, e.g. "switch relay 1 on".',
  },
  {
    request: 'is relay 2 on?',
    tools: RELAY_AND_METER,
    calls: [{ name: 'relay__get', args: { device_id: 'relay-1', channel: 2 } }],
    text: 'Reading relay-1 channel 2.',
  },
  {
    request: 'how much power now?',
    tools: RELAY_AND_METER,
    calls: [{ name: 'energy_meter__read', args: { device_id: METER } }],
    text: `Reading ${METER}.`,
  },
  {
    request: 'what is the voltage?',
    tools: RELAY_AND_METER,
    calls: [{ name: 'energy_meter__read', args: { device_id: METER } }],
    text: `Reading ${METER}.`,
  },
  {
    request: 'switch the energy meter off',
    tools: RELAY_AND_METER,
    calls: [],
    text: `I cannot switch ${METER}: the only action I may use on it is read. If it has another, grant it in the Devices tab.`,
  },
  {
    request: 'switch relay 1 on',
    tools: [AT_RELAY_GET, METER_READ],
    calls: [],
    text: 'I cannot switch relay-1: the only action I may use on it is get. If it has another, grant it in the Devices tab.',
  },
  {
    request: 'status',
    tools: [...LAMPS, ...RELAY_AND_METER],
    calls: [
      { name: 'lamp__get', args: { device_id: 'lamp-1' } },
      { name: 'lamp__get', args: { device_id: 'lamp-2' } },
      { name: 'thermometer__read', args: { device_id: 'thermometer-1' } },
      { name: 'relay__get', args: { device_id: 'relay-1', channel: 1 } },
      { name: 'relay__get', args: { device_id: 'relay-1', channel: 2 } },
      { name: 'relay__get', args: { device_id: 'relay-1', channel: 3 } },
      { name: 'relay__get', args: { device_id: 'relay-1', channel: 4 } },
      { name: 'energy_meter__read', args: { device_id: METER } },
    ],
    text: `Reading lamp-1 and lamp-2. Reading thermometer-1. Reading relay-1 channels 1–4 and ${METER}.`,
  },
  {
    request: 'switch relay 3 off',
    tools: [
      deviceTool(
        'relay__set',
        'Switch one channel (1–8) of 8-channel Modbus RTU relay board on or off.',
        ['relay-8-ttyusb1-u1'],
        { channel: { type: 'integer', minimum: 1, maximum: 8 }, on: { type: 'boolean' } },
        ['channel', 'on'],
      ),
    ],
    calls: [{ name: 'relay__set', args: { device_id: 'relay-8-ttyusb1-u1', channel: 3, on: false } }],
    text: 'Switching relay-8-ttyusb1-u1 channel 3 off.',
  },
  {
    request: 'switch relay 2 on',
    tools: [
      deviceTool(
        'relay__set',
        'Switch one relay channel (1–4) on or off.',
        ['relay-1', 'relay-2 ("Garden relay")'],
        { channel: { type: 'integer', minimum: 1, maximum: 4 }, on: { type: 'boolean' } },
        ['channel', 'on'],
      ),
    ],
    calls: [],
    text: 'Which relay do you mean? relay-1 and relay-2 each have channels: name one, e.g. "switch relay-1 channel 2 on".',
  },
  {
    request: 'is the door open?',
    tools: [...LAMPS, deviceTool('door_sensor__read', 'Read whether the door is open.', ['door_sensor-1'])],
    calls: [{ name: 'door_sensor__read', args: { device_id: 'door_sensor-1' } }],
    text: 'Reading door_sensor-1.',
  },
];

describe('the demo planner with devices it does not know by name', () => {
  for (const entry of REPLIES)
    it(`answers "${entry.request}" with ${entry.tools.map((tool) => tool.name).join(', ')}`, () => {
      expect(first(entry.request, entry.tools)).toEqual({ text: entry.text, calls: entry.calls });
    });

  it('says the Devices plugin is off instead of that there is no lamp, and acts on nothing', () => {
    const system = `persona\n\n${disabledPluginsSection([{ name: 'devices', description: 'Serial devices of the home.' }])!.text}`;
    for (const request of ['turn on all lamps', 'switch relay 1 on', 'status'])
      expect(first(request, [], system)).toEqual({
        text: 'The Devices plugin is turned off, so I can reach no device and did nothing. Turn it on in the Plugins tab, then ask again.',
        calls: [],
      });
    expect(first('turn on all lamps', []).text).toBe('There is no lamp among the devices I may use.');
  });
});

/** The last reply after the calls came back: what each result says, in words, and Done only when all worked. */
function last(
  request: string,
  tools: ModelTool[],
  results: { name: string; args: Record<string, unknown>; content: string }[],
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
      isError: false,
    })),
  ];
  return planDemoReply({ system: '', messages, tools }).text;
}

describe('the demo planner’s last reply about such devices', () => {
  it('says a relay switched only as the board answered it', () => {
    expect(
      last('switch relay 1 on', RELAY_AND_METER, [
        {
          name: 'relay__set',
          args: { device_id: 'relay-1', channel: 1, on: true },
          content: '{"device_id":"relay-1","result":{}}',
        },
      ]),
    ).toBe('Done.\n- relay-1 channel 1 switched on (the device said done)');
  });

  it('reads a meter out field by field with the units its tool declares, and a relay channel in words', () => {
    expect(
      last('status', RELAY_AND_METER, [
        {
          name: 'energy_meter__read',
          args: { device_id: METER },
          content: `{"device_id":"${METER}","result":{"voltage_v":229.8,"current_a":0.52,"power_w":119.5,"frequency_hz":50,"energy_kwh":12.25}}`,
        },
        {
          name: 'relay__get',
          args: { device_id: 'relay-1', channel: 2 },
          content: '{"device_id":"relay-1","result":{"channel":2,"on":true}}',
        },
      ]),
    ).toBe(
      `${METER} reads voltage_v 229.8 V, current_a 0.52 A, power_w 119.5 W, frequency_hz 50 Hz, energy_kwh 12.25 kWh\nrelay-1 channel 2 is on`,
    );
  });
});
