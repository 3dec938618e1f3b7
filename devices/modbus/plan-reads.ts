/** The four Modbus tables: coils (01), discrete inputs (02), holding registers (03), input registers (04). */
export type ModbusTable = 'coil' | 'discrete_input' | 'holding' | 'input';

/** One thing to read: `count` registers (or bits) from `address` of `table`. */
export interface ReadItem {
  key: string;
  table: ModbusTable;
  address: number;
  count: number;
}

/** One read transaction covering one or more items. */
export interface ReadTransaction {
  table: ModbusTable;
  address: number;
  count: number;
  items: ReadItem[];
}

/** The protocol's limits per read: 125 registers, 2000 bits. */
export const MAX_READ = { registers: 125, bits: 2000 } as const;

const TABLE_ORDER: readonly ModbusTable[] = ['input', 'holding', 'coil', 'discrete_input'];

/**
 * Groups items into as few read transactions as possible without reading anything that was not
 * asked for: items of one table whose ranges touch or overlap share a transaction, up to the
 * protocol's limit. Registers between two items are never read (a device may refuse them).
 */
export function planReads(items: readonly ReadItem[], limits: typeof MAX_READ = MAX_READ): ReadTransaction[] {
  const transactions: ReadTransaction[] = [];
  for (const table of TABLE_ORDER) {
    const limit = table === 'coil' || table === 'discrete_input' ? limits.bits : limits.registers;
    const sorted = items
      .filter((item) => item.table === table)
      .sort((a, b) => a.address - b.address || b.count - a.count);
    let current: ReadTransaction | undefined;
    for (const item of sorted) {
      const end = item.address + item.count;
      const joined = current === undefined ? undefined : Math.max(current.address + current.count, end);
      if (
        current !== undefined &&
        joined !== undefined &&
        item.address <= current.address + current.count &&
        joined - current.address <= limit
      ) {
        current.count = joined - current.address;
        current.items.push(item);
        continue;
      }
      current = { table, address: item.address, count: item.count, items: [item] };
      transactions.push(current);
    }
  }
  return transactions;
}

/** The values of one item, cut out of its transaction's values. */
export function valuesOf<T>(transaction: ReadTransaction, item: ReadItem, values: readonly T[]): T[] {
  const start = item.address - transaction.address;
  return values.slice(start, start + item.count);
}
