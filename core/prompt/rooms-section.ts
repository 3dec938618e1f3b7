import { roomKey, sameRoom } from '../text/room-name.ts';
import type { ListedDevice } from './devices-section.ts';

/** How the prompt lists the devices: each one (`all`), or the rooms with counts, a room's devices read by a tool (`rooms-first`). */
export const PROMPT_DEVICES_MODES = ['all', 'rooms-first'] as const;
export type PromptDevicesMode = (typeof PROMPT_DEVICES_MODES)[number];
/** The setting promptDevices when none is given: every device in the prompt. */
export const DEFAULT_PROMPT_DEVICES: PromptDevicesMode = 'all';

/** The tool that reads one room's devices when the prompt lists rooms first. */
export const LIST_DEVICES_TOOL = 'home_list_devices';

/** A listed device and the room the person put it in (absent: none; already passed through the text rule). */
export type RoomedDevice = ListedDevice & { room?: string };

/** How the rooms follow the device lines when every device is listed (a model, the demo planner included, reads it). */
export const ROOMS_HEADING = 'Rooms (for a whole room, call the tool once for each of its devices, all in one reply):';

/** How the section begins when rooms come first. */
export const ROOMS_FIRST_HEADING = `Devices by room (${LIST_DEVICES_TOOL} {room} reads a room's devices: ids, kinds, names, state; room "" for devices in no room):`;

/** One room and its devices, in the order they were listed; rooms by name, whatever their case. */
export interface RoomGroup {
  /** The room as the home spells it; undefined for the devices in no room. */
  room: string | undefined;
  devices: RoomedDevice[];
}

/** Pure: the devices grouped by room, rooms in name order, the devices in no room last. */
export function groupByRoom(devices: readonly RoomedDevice[]): RoomGroup[] {
  const groups = new Map<string, RoomGroup>();
  for (const device of devices) {
    const key = device.room === undefined ? '' : roomKey(device.room);
    const group = groups.get(key) ?? { room: device.room, devices: [] };
    group.devices.push(device);
    groups.set(key, group);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a === '' ? 1 : b === '' ? -1 : a < b ? -1 : a > b ? 1 : 0))
    .map(([, group]) => group);
}

/** `Rooms (…):` then `- Kitchen: lamp-1, relay-1`, one line per room; undefined when no device has a room. */
export function roomLines(devices: readonly RoomedDevice[]): string | undefined {
  const rooms = groupByRoom(devices).filter((group) => group.room !== undefined);
  if (rooms.length === 0) return undefined;
  const lines = rooms.map((group) => `- ${group.room}: ${group.devices.map((device) => device.id).join(', ')}`);
  return [ROOMS_HEADING, ...lines].join('\n');
}

/** `Devices by room (…):` then `- Kitchen: 10 devices (lamp 6, relay 4)`, one line per room, `- (no room): …` last. */
export function roomsFirstSection(devices: readonly RoomedDevice[]): string {
  const lines = groupByRoom(devices).map((group) => {
    const kinds = new Map<string, number>();
    for (const device of group.devices) kinds.set(device.kind, (kinds.get(device.kind) ?? 0) + 1);
    const counted = [...kinds.entries()].map(([kind, count]) => `${kind} ${count}`).join(', ');
    const count = `${group.devices.length} device${group.devices.length === 1 ? '' : 's'}`;
    return `- ${group.room ?? '(no room)'}: ${count} (${counted})`;
  });
  return [ROOMS_FIRST_HEADING, ...lines].join('\n');
}

/** Pure: the devices of one room, whatever its case; `''` for the devices in no room. */
export function devicesInRoom<T extends RoomedDevice>(devices: readonly T[], room: string): T[] {
  return devices.filter((device) =>
    room.trim() === '' ? device.room === undefined : device.room !== undefined && sameRoom(device.room, room),
  );
}

/** Pure: the rooms a system prompt lists after its devices, each with its device ids (none without a rooms section). */
export function listedRooms(system: string): { room: string; ids: string[] }[] {
  const lines = system.split('\n');
  const start = lines.indexOf(ROOMS_HEADING);
  if (start === -1) return [];
  const rooms: { room: string; ids: string[] }[] = [];
  for (const line of lines.slice(start + 1)) {
    const match = /^- (.+): (\S+(?:, \S+)*)$/.exec(line);
    if (!match) break;
    rooms.push({ room: match[1]!, ids: match[2]!.split(', ') });
  }
  return rooms;
}
