import type { ToolDefinition } from '../../core/tools/tool-definition.ts';
import { ToolError } from '../../core/tools/tool-error.ts';
import { devicesInRoom, groupByRoom, LIST_DEVICES_TOOL, type RoomedDevice } from '../../core/prompt/rooms-section.ts';

/**
 * `home_list_devices {room}`: the devices of one room, as the prompt would list them (id, kind,
 * name, state, actions not granted), for a prompt that lists rooms first. Reads only; a room no
 * device is in fails naming the rooms there are.
 */
export function listDevicesTool(devices: () => RoomedDevice[]): ToolDefinition {
  return {
    name: LIST_DEVICES_TOOL,
    description:
      'Lists the devices of one room: id, kind, name, state, and the actions the person has not granted. room "" lists the devices in no room.',
    parameters: {
      type: 'object',
      properties: {
        room: {
          type: 'string',
          description: 'A room as the prompt lists it (any case); "" for the devices in no room.',
        },
      },
      required: ['room'],
    },
    parallelSafe: true,
    serial: false,
    readOnly: true,
    handler: (args) => {
      const room = typeof args.room === 'string' ? args.room : '';
      const all = devices();
      const found = devicesInRoom(all, room);
      if (found.length === 0 && room.trim() !== '') {
        const rooms = groupByRoom(all).flatMap((group) => (group.room === undefined ? [] : [group.room]));
        throw new ToolError({
          field: 'room',
          reason: 'failed',
          detail: `no device is in a room "${room}"`,
          hint: rooms.length > 0 ? `the rooms are: ${rooms.join(', ')}` : 'no device has a room: use room ""',
        });
      }
      return {
        room: found[0]?.room ?? '',
        devices: found.map((device) => ({
          id: device.id,
          kind: device.kind,
          ...(device.alias !== undefined ? { alias: device.alias } : {}),
          state: device.state,
          ...(device.notGranted.length > 0 ? { notGranted: device.notGranted } : {}),
        })),
      };
    },
  };
}
