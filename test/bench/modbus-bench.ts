import { performance } from 'node:perf_hooks';
import { DeviceRegistry } from '../../devices/registry/device-registry.ts';
import { BUILTIN_MODBUS_PROFILES } from '../../devices/modbus/builtin-modbus-profiles.ts';
import { planReads } from '../../devices/modbus/plan-reads.ts';
import { readItems } from '../../devices/modbus/modbus-tools.ts';
import { meterRegisters } from '../helpers/modbus-rig.ts';
import { startPymodbus, type PeerLogEntry } from '../helpers/start-pymodbus.ts';
import { builtinWaysIn } from '../../devices/ways-in/builtin-ways-in.ts';

const READS = 200;
const WARM_UP = 10;
const BAUDS = [9600, 115_200] as const;
/** 8N1: a start bit, 8 data bits, a stop bit. */
const BITS_PER_BYTE = 10;
/** Each frame is followed by 3.5 character times of silence (the RTU end-of-frame marker). */
const GAP_CHARACTERS = 3.5;
const REQUEST_BYTES = 8;

/** What one baud rate's wire alone would allow for the same frames. */
export interface WireLimit {
  msPerTransaction: number;
  readsPerSecond: number;
}

/** The `modbus` entry of the bench: meter reads over a pseudo-terminal beside the wire-time limits. */
export interface ModbusBenchResult {
  reads: number;
  transactionsPerRead: number;
  registersPerTransaction: number;
  /** Requests the pymodbus server logged during the timed reads (must be reads × transactions per read). */
  transactionsExecuted: number;
  readsPerSecond: number;
  /**
   * One transaction's round trip over the pseudo-terminal: the host (unit link, bus, our port,
   * modbus-serial), the pseudo-terminal and pymodbus together — an upper bound of the host's own cost.
   */
  msPerTransaction: number;
  /** pymodbus from a decoded request to its reply leaving, by its own clock (part of the round trip). */
  serverHandlingMsPerTransaction: number;
  wireLimit: Record<string, WireLimit>;
  /** readsPerSecond over each wire limit: above 1 means the host keeps up with that wire. */
  overWireLimit: Record<string, number>;
}

/** Wire time of one read-registers transaction of `registers` registers at `baud` (request, reply, and their gaps). */
export function wireMsPerTransaction(baud: number, registers: number): number {
  const replyBytes = 5 + 2 * registers;
  const characters = REQUEST_BYTES + replyBytes + 2 * GAP_CHARACTERS;
  return ((characters * BITS_PER_BYTE) / baud) * 1000;
}

/**
 * An SDM120 profile read (five transactions of two registers) against pymodbus on a pseudo-terminal,
 * which ignores baud: reads per second beside what 9600 and 115200 baud would allow for the same
 * frames, so the host's own cost per transaction shows. Counts what the server really executed.
 */
export async function benchModbus(): Promise<ModbusBenchResult> {
  const profile = BUILTIN_MODBUS_PROFILES['eastron-sdm120']!;
  const plan = planReads(readItems(profile));
  const registersPerTransaction = plan[0]!.count;
  const peer = await startPymodbus({ buses: [{ units: { 1: meterRegisters() } }] });
  const registry = new DeviceRegistry({ waysIn: builtinWaysIn({ modbus: { transactionTimeoutMs: 2000 } }) });
  try {
    const { id } = await registry.attach(peer.paths[0]!, {
      grant: 'all',
      profile: { protocol: 'modbus-rtu', name: 'eastron-sdm120', profile },
      wayInOptions: { unit: 1 },
    });
    for (let index = 0; index < WARM_UP; index += 1) await registry.call(id, 'read', {});
    const from = peer.log.length;
    const start = performance.now();
    for (let index = 0; index < READS; index += 1) await registry.call(id, 'read', {});
    const elapsedMs = performance.now() - start;
    const transactions = READS * plan.length;
    // The server's log and the port are two streams: wait until its log has a request and a reply
    // for every transaction (a missing one fails the bench rather than measure less work).
    const last = from + 2 * transactions - 1;
    await Promise.race([
      peer.waitFor((entry) => peer.log.indexOf(entry) >= last, from),
      new Promise((_resolve, reject) =>
        setTimeout(() => reject(new Error('the server logged fewer transactions than were made')), 10_000).unref(),
      ),
    ]);
    const wire = peer.log.slice(from, last + 1);
    const executed = wire.filter((entry) => entry.event === 'request').length;
    if (executed !== transactions)
      throw new Error(`the server logged ${executed} requests for ${transactions} transactions`);
    const msPerTransaction = elapsedMs / transactions;
    const serverMs = serverTime(wire) / transactions;
    const readsPerSecond = (READS / elapsedMs) * 1000;
    const round = (value: number): number => Math.round(value * 1000) / 1000;
    const wireLimit: Record<string, WireLimit> = {};
    const overWireLimit: Record<string, number> = {};
    for (const baud of BAUDS) {
      const ms = wireMsPerTransaction(baud, registersPerTransaction);
      const limit = 1000 / (ms * plan.length);
      wireLimit[String(baud)] = { msPerTransaction: round(ms), readsPerSecond: round(limit) };
      overWireLimit[String(baud)] = round(readsPerSecond / limit);
    }
    return {
      reads: READS,
      transactionsPerRead: plan.length,
      registersPerTransaction,
      transactionsExecuted: executed,
      readsPerSecond: round(readsPerSecond),
      msPerTransaction: round(msPerTransaction),
      serverHandlingMsPerTransaction: round(serverMs),
      wireLimit,
      overWireLimit,
    };
  } finally {
    await registry.dispose();
    await peer.close();
  }
}

/** Sum over the transactions of request-in to reply-out, paired in log order (one at a time on the bus). */
function serverTime(wire: readonly PeerLogEntry[]): number {
  let total = 0;
  let requestAt: number | undefined;
  for (const entry of wire) {
    if (entry.event === 'request') requestAt = entry.t;
    else if (entry.event === 'reply' && requestAt !== undefined) {
      total += (entry.t - requestAt) * 1000;
      requestAt = undefined;
    }
  }
  return total;
}
