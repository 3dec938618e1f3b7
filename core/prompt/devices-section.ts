/** How the prompt section listing every paired device begins (a model, the demo planner included, reads it). */
export const DEVICES_HEADING = 'Devices (pass device_id to device tools):';

/** One paired device as the prompt lists it. */
export interface ListedDevice {
  id: string;
  kind: string;
  /** The name the person gave it, when it differs from its id (already passed through the text rule). */
  alias?: string;
  /** `online`, or its link's status. */
  state: string;
  /** Actions it declares that the person has not granted, in name order. */
  notGranted: string[];
}

/** `- lamp-3 (lamp, "Desk lamp"): online; not granted: get, set` */
export function deviceLine(device: ListedDevice): string {
  const alias = device.alias !== undefined ? `, "${device.alias}"` : '';
  const withheld = device.notGranted.length > 0 ? `; not granted: ${device.notGranted.join(', ')}` : '';
  return `- ${device.id} (${device.kind}${alias}): ${device.state}${withheld}`;
}

const LINE = /^- (\S+) \(([a-z][a-z0-9_]*)(?:, "(.*)")?\): (.*?)(?:; not granted: ([a-z0-9_, ]+))?$/;

/** Pure: the devices a system prompt lists (none when it has no devices section). */
export function listedDevices(system: string): ListedDevice[] {
  const lines = system.split('\n');
  const start = lines.indexOf(DEVICES_HEADING);
  if (start === -1) return [];
  const devices: ListedDevice[] = [];
  for (const line of lines.slice(start + 1)) {
    const match = LINE.exec(line);
    if (!match) break;
    const [, id, kind, alias, state, withheld] = match as unknown as [
      string,
      string,
      string,
      string | undefined,
      string,
      string | undefined,
    ];
    devices.push({
      id,
      kind,
      ...(alias !== undefined ? { alias } : {}),
      state,
      notGranted: withheld ? withheld.split(', ').filter(Boolean) : [],
    });
  }
  return devices;
}
