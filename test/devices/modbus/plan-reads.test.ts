import { describe, expect, it } from 'vitest';
import { BUILTIN_MODBUS_PROFILES } from '../../../devices/modbus/builtin-modbus-profiles.ts';
import { readItems } from '../../../devices/modbus/modbus-tools.ts';
import { planReads, type ReadItem } from '../../../devices/modbus/plan-reads.ts';

const item = (key: string, address: number, count = 2, table: ReadItem['table'] = 'input'): ReadItem => ({
  key,
  table,
  address,
  count,
});

describe('planReads', () => {
  it('reads the SDM120 in five transactions: its registers are not contiguous (0, 6, 12, 70, 342)', () => {
    const plan = planReads(readItems(BUILTIN_MODBUS_PROFILES['eastron-sdm120']!));
    expect(plan.map(({ table, address, count }) => ({ table, address, count }))).toEqual([
      { table: 'input', address: 0, count: 2 },
      { table: 'input', address: 6, count: 2 },
      { table: 'input', address: 12, count: 2 },
      { table: 'input', address: 70, count: 2 },
      { table: 'input', address: 342, count: 2 },
    ]);
  });

  it('reads the eight relays of relay-8 in one transaction (coils 0–7)', () => {
    const plan = planReads(readItems(BUILTIN_MODBUS_PROFILES['relay-8']!));
    expect(plan).toHaveLength(1);
    expect(plan[0]).toMatchObject({ table: 'coil', address: 0, count: 8 });
    expect(plan[0]!.items.map((entry) => entry.key)).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((n) => `relay_${n}`));
  });

  it('joins touching and overlapping ranges of one table, never across a gap or a table', () => {
    const plan = planReads([
      item('c', 4),
      item('a', 0),
      item('b', 2),
      item('inside', 3, 1),
      item('gap', 7),
      item('held', 0, 2, 'holding'),
    ]);
    expect(plan.map(({ table, address, count, items }) => [table, address, count, items.map((i) => i.key)])).toEqual([
      ['input', 0, 6, ['a', 'b', 'inside', 'c']],
      ['input', 7, 2, ['gap']],
      ['holding', 0, 2, ['held']],
    ]);
  });

  it('splits a contiguous run at the protocol limit of 125 registers', () => {
    const items = Array.from({ length: 70 }, (_, index) => item(`r${index}`, index * 2));
    const plan = planReads(items);
    // 124 registers (62 two-register values) fit; the 63rd would make 126.
    expect(plan.map(({ address, count }) => [address, count])).toEqual([
      [0, 124],
      [124, 16],
    ]);
  });
});
