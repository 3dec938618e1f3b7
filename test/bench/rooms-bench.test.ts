import { describe, expect, it } from 'vitest';
import { benchRooms } from './rooms-bench.ts';

describe('the rooms bench', () => {
  it('measures a home of 100 devices in 10 rooms, rooms-first asking fewer tokens of every request than all', async () => {
    const bench = await benchRooms();
    expect([bench.devices, bench.rooms]).toEqual([100, 10]);
    expect(bench.roomsFirst.tools).toBe(bench.all.tools + 1);
    expect(bench.roomsFirst.tokens).toBeLessThan(bench.all.tokens);
    expect(bench.oneRoomReadTokens).toBeGreaterThan(0);
    console.log(JSON.stringify(bench));
  }, 60_000);
});
