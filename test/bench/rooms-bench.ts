import { DEFAULT_BYTES_PER_TOKEN, tokensOf } from '../../core/context/request-bytes.ts';
import { assemblePrompt, DEFAULT_PERSONA } from '../../core/prompt/assemble-prompt.ts';
import { LIST_DEVICES_TOOL, type PromptDevicesMode } from '../../core/prompt/rooms-section.ts';
import { utf8Length } from '../../core/text/utf8-length.ts';
import { DeviceRegistry } from '../../devices/registry/device-registry.ts';
import { startInProcessDevices } from '../../devices/simulator/start-in-process-devices.ts';
import type { SimulatedKind } from '../../devices/simulator/device-catalog.ts';
import { createDevicesPlugin } from '../../devices/tools/devices-plugin.ts';
import { builtinWaysIn } from '../../devices/ways-in/builtin-ways-in.ts';
import { toolCallContext } from '../helpers/device-tool-context.ts';

const ROOMS = [
  'Kitchen',
  'Hall',
  'Living room',
  'Dining room',
  'Bedroom',
  'Nursery',
  'Study',
  'Bathroom',
  'Garage',
  'Cellar',
];
/** 100 simulated devices: 60 lamps, 30 thermometers, 10 door sensors, ten to a room. */
const KINDS: SimulatedKind[] = [
  ...Array<SimulatedKind>(60).fill('lamp'),
  ...Array<SimulatedKind>(30).fill('thermometer'),
  ...Array<SimulatedKind>(10).fill('door_sensor'),
];

/** What one way of listing the devices costs every request (system prompt and tool declarations). */
export interface RoomsPromptFigures {
  systemBytes: number;
  toolBytes: number;
  /** Of the request's fixed part, at the budget's default of 3.5 bytes a token (core/context/request-bytes.ts). */
  tokens: number;
  tools: number;
}

/** The `rooms` bench entry: a home of 100 simulated devices in 10 rooms, its prompt with `all` beside `rooms-first`. */
export interface RoomsBench {
  devices: number;
  rooms: number;
  bytesPerToken: number;
  all: RoomsPromptFigures;
  roomsFirst: RoomsPromptFigures;
  /** rooms-first's tokens over all's. */
  ratio: number;
  /** What reading one room (`home_list_devices`, ten devices) adds to the turn that reads it, in tokens. */
  oneRoomReadTokens: number;
}

function figures(plugin: ReturnType<typeof createDevicesPlugin>): RoomsPromptFigures {
  const { system, tools } = assemblePrompt({ plugins: [plugin], persona: DEFAULT_PERSONA });
  const declared = tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
  }));
  const systemBytes = utf8Length(system);
  const toolBytes = utf8Length(JSON.stringify(declared));
  return {
    systemBytes,
    toolBytes,
    tokens: tokensOf(systemBytes + toolBytes, DEFAULT_BYTES_PER_TOKEN),
    tools: tools.length,
  };
}

export async function benchRooms(): Promise<RoomsBench> {
  const sim = startInProcessDevices({ kinds: KINDS, latencyMs: 0 });
  const registry = new DeviceRegistry({ helloTimeoutMs: 5000, reconnectIntervalMs: 50, waysIn: builtinWaysIn() });
  try {
    for (const device of sim.devices) await registry.attachConnector(device.connector, { grant: 'all' });
    const rooms = new Map(registry.list().map((device, index) => [device.id, ROOMS[index % ROOMS.length]!]));
    let mode: PromptDevicesMode = 'all';
    const plugin = createDevicesPlugin(registry, { rooms: () => rooms, promptDevices: () => mode });
    const all = figures(plugin);
    mode = 'rooms-first';
    const roomsFirst = figures(plugin);
    const list = plugin.tools().find((tool) => tool.name === LIST_DEVICES_TOOL)!;
    const read = await list.handler({ room: 'Kitchen' }, toolCallContext({ toolName: LIST_DEVICES_TOOL }));
    return {
      devices: registry.list().length,
      rooms: ROOMS.length,
      bytesPerToken: DEFAULT_BYTES_PER_TOKEN,
      all,
      roomsFirst,
      ratio: Math.round((roomsFirst.tokens / all.tokens) * 1000) / 1000,
      oneRoomReadTokens: tokensOf(utf8Length(JSON.stringify(read)), DEFAULT_BYTES_PER_TOKEN),
    };
  } finally {
    await registry.dispose();
    await sim.close();
  }
}
