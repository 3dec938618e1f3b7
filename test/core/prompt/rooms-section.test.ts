import { describe, expect, it } from 'vitest';
import {
  devicesInRoom,
  groupByRoom,
  listedRooms,
  ROOMS_FIRST_HEADING,
  ROOMS_HEADING,
  roomLines,
  roomsFirstSection,
  type RoomedDevice,
} from '../../../core/prompt/rooms-section.ts';

const device = (id: string, kind: string, room?: string): RoomedDevice => ({
  id,
  kind,
  state: 'online',
  notGranted: [],
  ...(room !== undefined ? { room } : {}),
});

const home = [
  device('lamp-1', 'lamp', 'Kitchen'),
  device('thermo-1', 'thermometer'),
  device('lamp-2', 'lamp', 'Hall'),
  device('relay-1', 'relay', 'kitchen'),
  device('lamp-3', 'lamp', 'Kitchen'),
];

describe('the rooms of the prompt', () => {
  it('says each room on one line with its devices, rooms in name order whatever their case', () => {
    expect(roomLines(home)).toBe([ROOMS_HEADING, '- Hall: lamp-2', '- Kitchen: lamp-1, relay-1, lamp-3'].join('\n'));
  });

  it('says no rooms when no device has one', () => {
    expect(roomLines([device('lamp-1', 'lamp')])).toBeUndefined();
  });

  it('lists rooms first with their counts by kind, the devices in no room last', () => {
    expect(roomsFirstSection(home)).toBe(
      [
        ROOMS_FIRST_HEADING,
        '- Hall: 1 device (lamp 1)',
        '- Kitchen: 3 devices (lamp 2, relay 1)',
        '- (no room): 1 device (thermometer 1)',
      ].join('\n'),
    );
  });

  it('finds the devices of a room whatever its case, and "" finds those in no room', () => {
    expect(devicesInRoom(home, 'KITCHEN').map((found) => found.id)).toEqual(['lamp-1', 'relay-1', 'lamp-3']);
    expect(devicesInRoom(home, '').map((found) => found.id)).toEqual(['thermo-1']);
    expect(devicesInRoom(home, 'Attic')).toEqual([]);
  });

  it('groups in the spelling the first device of a room has', () => {
    expect(groupByRoom(home).map((group) => group.room)).toEqual(['Hall', 'Kitchen', undefined]);
  });

  it('reads back the rooms a prompt lists', () => {
    const system = ['You control a home.', roomLines(home)!, '', '- Attic: lamp-9'].join('\n');
    expect(listedRooms(system)).toEqual([
      { room: 'Hall', ids: ['lamp-2'] },
      { room: 'Kitchen', ids: ['lamp-1', 'relay-1', 'lamp-3'] },
    ]);
  });
});
