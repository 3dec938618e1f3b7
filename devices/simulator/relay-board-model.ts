import { DeviceFailure } from './simulated-device-model.ts';
import type { SimulatedDeviceModel } from './simulated-device-model.ts';
import type { FirmwareDialect } from './firmware-dialect.ts';

/** A 4-channel relay board: `set` {channel 1–4, on}, `get` {channel} → {channel, on}. */
export function createRelayBoardModel(): SimulatedDeviceModel & { state: { channels: boolean[] } } {
  const state = { channels: [false, false, false, false] };
  const channelOf = (args: Record<string, unknown>): number => {
    const channel = args.channel;
    if (typeof channel !== 'number' || !Number.isInteger(channel) || channel < 1 || channel > 4)
      throw new DeviceFailure('type', 'channel must be 1-4', 'channel');
    return channel;
  };
  return {
    kind: 'relay',
    model: 'AT-RELAY-4',
    firmware: '1.4.0',
    state,
    tools: [
      {
        name: 'set',
        description: 'Switch one relay channel.',
        parameters: { type: 'object', properties: { channel: { type: 'integer' }, on: { type: 'boolean' } } },
        parallelSafe: true,
        serial: false,
        confirm: true,
      },
      {
        name: 'get',
        description: 'Read one relay channel.',
        parameters: { type: 'object', properties: { channel: { type: 'integer' } } },
        parallelSafe: true,
        serial: false,
        readOnly: true,
      },
    ],
    handle(tool, args) {
      const channel = channelOf(args);
      if (tool === 'set') state.channels[channel - 1] = args.on === true;
      return { channel, on: state.channels[channel - 1] };
    },
  };
}

/**
 * The AT command set of the simulated relay board (`AT+ID?`, `AT+R1=1` → `OK`, `AT+R1?` → `+R1=1`),
 * answering with `\r\n` like typical modem-style firmware. The shipped profile describes it.
 */
export function createAtRelayDialect(): FirmwareDialect {
  let nextId = 1;
  return {
    decode(line) {
      const text = line.trim();
      if (text === 'AT+ID?') return { type: 'hello', id: nextId++ };
      const set = /^AT\+R([1-4])=([01])$/.exec(text);
      if (set)
        return { type: 'call', id: nextId++, tool: 'set', args: { channel: Number(set[1]), on: set[2] === '1' } };
      const get = /^AT\+R([1-4])\?$/.exec(text);
      if (get) return { type: 'call', id: nextId++, tool: 'get', args: { channel: Number(get[1]) } };
      return { type: 'invalid', reply: 'ERROR:unknown command\r\n' };
    },
    hello: (_id, hello) => `+ID:${hello.device.id},${hello.device.firmware}\r\n`,
    result(request, result) {
      if (request.tool === 'set') return 'OK\r\n';
      const state = result as { channel: number; on: boolean };
      return `+R${state.channel}=${state.on ? 1 : 0}\r\n`;
    },
    failure: (_request, failure) => `ERROR:${failure.message}\r\n`,
  };
}
