import { listedRooms } from '../../prompt/rooms-section.ts';

/**
 * Pure: the room a request names ("turn off everything in the kitchen"), whatever its case, with its
 * device ids as the system prompt's rooms list them; undefined when it names none. A longer name
 * wins over one it contains ("Kitchen annex" over "Kitchen").
 */
export function roomOfRequest(text: string, system: string): { room: string; ids: Set<string> } | undefined {
  const said = text.toLowerCase();
  const rooms = listedRooms(system).sort((a, b) => b.room.length - a.room.length);
  for (const { room, ids } of rooms) {
    const name = room.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    if (new RegExp(`(^|[^\\p{L}\\p{N}])${name}($|[^\\p{L}\\p{N}])`, 'u').test(said)) return { room, ids: new Set(ids) };
  }
  return undefined;
}
