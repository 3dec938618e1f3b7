import { parseLineProfile } from './line-profile-schema.ts';

/** The shipped profile: a 4-channel relay board with an AT command set (`AT+R1=1` → `OK`). */
export const AT_RELAY_BOARD_PROFILE = parseLineProfile({
  name: 'AT 4-channel relay board',
  kind: 'relay',
  model: 'AT-RELAY-4',
  lineEnding: '\r\n',
  identify: {
    command: 'AT+ID?',
    response: {
      pattern: '^\\+ID:(?<id>[A-Za-z0-9._-]+),(?<firmware>[A-Za-z0-9._-]+)$',
      captures: { id: 'string', firmware: 'string' },
    },
  },
  tools: [
    {
      name: 'set',
      description: 'Switch one relay channel (1–4) on or off.',
      parameters: {
        type: 'object',
        properties: { channel: { type: 'integer', minimum: 1, maximum: 4 }, on: { type: 'boolean' } },
        required: ['channel', 'on'],
      },
      parallelSafe: true,
      // A relay may switch mains: the person confirms each switch.
      confirm: true,
      command: 'AT+R{channel}={on}',
      formats: { channel: { 1: '1', 2: '2', 3: '3', 4: '4' }, on: { true: '1', false: '0' } },
      responses: [
        { pattern: '^OK$', captures: {} },
        { pattern: '^ERROR(?::(?<detail>.*))?$', error: 'failed' },
      ],
    },
    {
      name: 'get',
      description: 'Read whether one relay channel (1–4) is on.',
      parameters: {
        type: 'object',
        properties: { channel: { type: 'integer', minimum: 1, maximum: 4 } },
        required: ['channel'],
      },
      parallelSafe: true,
      readOnly: true,
      command: 'AT+R{channel}?',
      formats: { channel: { 1: '1', 2: '2', 3: '3', 4: '4' } },
      responses: [
        { pattern: '^\\+R(?<channel>[1-4])=(?<on>[01])$', captures: { channel: 'integer', on: 'boolean' } },
        { pattern: '^ERROR(?::(?<detail>.*))?$', error: 'failed' },
      ],
    },
  ],
});
