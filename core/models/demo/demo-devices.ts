import type { ModelTool } from '../model-adapter.ts';
import { listedDevices } from '../../prompt/devices-section.ts';

/** A device the demo planner may use, as its tools describe it. */
export interface DemoDevice {
  id: string;
  kind: string;
  /** The name a person gave it at pairing, when the tool description quotes one. */
  alias?: string;
  /** The actions granted on it (`set`, `get`, …), each with its tool. */
  actions: Map<string, ModelTool>;
  /** The actions it declares that the person has not granted (from the prompt's devices section). */
  notGranted: string[];
}

/** Every device the tools name, by id, in id order. */
export type DemoDevices = Map<string, DemoDevice>;

const DEVICE_TOOL = /^([a-z][a-z0-9_]*?)__([a-z][a-z0-9_]*)$/;

/** The device ids a device tool accepts (its `device_id` enum), or [] when it names none. */
export function deviceIdsOf(tool: ModelTool): string[] {
  const enumValues = tool.parameters.properties?.device_id?.enum;
  return Array.isArray(enumValues) ? enumValues.map(String) : [];
}

/**
 * Pure: the devices behind the device tools (`<kind>__<action>` with a `device_id` enum, as the
 * devices plugin lists only granted actions), with the aliases their descriptions quote
 * (`Devices: lamp-1 ("Kitchen"), lamp-2.`), and every paired device the system prompt lists, with
 * the actions not granted on it (a device with none granted has no actions).
 */
export function devicesOf(tools: readonly ModelTool[], system = ''): DemoDevices {
  const devices: DemoDevices = new Map();
  for (const tool of tools) {
    const match = DEVICE_TOOL.exec(tool.name);
    if (!match) continue;
    const [, kind, action] = match as unknown as [string, string, string];
    const aliases = new Map(
      [...tool.description.matchAll(/([\w.:-]+) \("([^"]+)"\)/g)].map((found) => [found[1], found[2]]),
    );
    for (const id of deviceIdsOf(tool)) {
      const device = devices.get(id) ?? { id, kind, actions: new Map<string, ModelTool>(), notGranted: [] };
      const alias = aliases.get(id);
      if (alias !== undefined) device.alias = alias;
      device.actions.set(action, tool);
      devices.set(id, device);
    }
  }
  for (const listed of listedDevices(system)) {
    const device: DemoDevice = devices.get(listed.id) ?? {
      id: listed.id,
      kind: listed.kind,
      actions: new Map<string, ModelTool>(),
      notGranted: [],
    };
    if (listed.alias !== undefined && device.alias === undefined) device.alias = listed.alias;
    device.notGranted = listed.notGranted;
    devices.set(listed.id, device);
  }
  return new Map([...devices.entries()].sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0)));
}

/** The devices it may use at least one action of. */
export function usableDevices(devices: DemoDevices): DemoDevices {
  return new Map([...devices].filter(([, device]) => device.actions.size > 0));
}

/** What the person calls a device: the name they gave it at pairing, else its id. */
export function spokenName(device: DemoDevice): string {
  return device.alias ?? device.id;
}

/** What the person calls the device with this id (its id when the tools name no such device). */
export function spokenNameOf(devices: DemoDevices, id: unknown): string {
  const device = typeof id === 'string' ? devices.get(id) : undefined;
  return device ? spokenName(device) : String(id);
}

/** The devices of one kind, in id order. */
export function devicesOfKind(devices: DemoDevices, kind: string): DemoDevice[] {
  return [...devices.values()].filter((device) => device.kind === kind);
}

/** "a", "a and b", "a, b and c". */
export function listInWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
