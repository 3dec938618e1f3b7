import { describe, expect, it } from 'vitest';
import { planDemoReply } from '../../../../core/models/demo/demo-model.ts';
import type { ModelTool } from '../../../../core/models/model-adapter.ts';
import { DEVICES_HEADING } from '../../../../core/prompt/devices-section.ts';
import { ROOMS_HEADING } from '../../../../core/prompt/rooms-section.ts';

const LAMPS = ['lamp-1', 'lamp-2', 'lamp-3'];
// Written by hand as the devices plugin lists them (devices/tools/devices-plugin.ts).
const TOOLS: ModelTool[] = [
  {
    name: 'lamp__set',
    description: `Switch the lamp on or off and/or set its brightness (0–100). Devices: ${LAMPS.join(', ')}.`,
    parameters: {
      type: 'object',
      properties: {
        device_id: { type: 'string', enum: LAMPS },
        on: { type: 'boolean' },
        brightness: { type: 'integer', minimum: 0, maximum: 100 },
      },
    },
  },
];
const SYSTEM = [
  DEVICES_HEADING,
  '- lamp-1 (lamp): online',
  '- lamp-2 (lamp): online',
  '- lamp-3 (lamp): online',
  ROOMS_HEADING,
  '- Kitchen: lamp-1, lamp-3',
  '- Hall: lamp-2',
].join('\n');

const reply = (text: string) => planDemoReply({ system: SYSTEM, messages: [{ role: 'user', text }], tools: TOOLS });

describe('the demo model and rooms', () => {
  it('turns off everything in the kitchen as one reply of the kitchen’s devices', () => {
    expect(reply('Turn off everything in the Kitchen').calls).toEqual([
      { name: 'lamp__set', args: { device_id: 'lamp-1', on: false } },
      { name: 'lamp__set', args: { device_id: 'lamp-3', on: false } },
    ]);
  });

  it('switches the lamps of the hall only, and every lamp when no room is named', () => {
    expect(reply('switch on the lights in the hall').calls.map((call) => call.args.device_id)).toEqual(['lamp-2']);
    expect(reply('turn everything off').calls.map((call) => call.args.device_id)).toEqual(LAMPS);
  });
});
