import { performance } from 'node:perf_hooks';
import { encodeRequest } from '../../devices/protocol/encode-request.ts';
import { DeviceRegistry } from '../../devices/registry/device-registry.ts';
import { startSimulatedDevices } from '../../devices/simulator/start-simulated-devices.ts';
import { createDevicesPlugin } from '../../devices/tools/devices-plugin.ts';
import type { ToolDefinition } from '../../core/tools/tool-definition.ts';
import { boardPackagesInstallLine, missingBoardPackages } from '../helpers/avr/board-packages.ts';
import { buildExample, EXAMPLES, type Example } from '../helpers/avr/build-sketch.ts';
import { startLinkedBoard } from '../helpers/avr/linked-board.ts';
import { startSimavrBoard, openListeningBoard } from '../helpers/avr/simavr-board.ts';
import { toolCallContext } from '../helpers/device-tool-context.ts';
import { builtinWaysIn } from '../../devices/ways-in/builtin-ways-in.ts';
import { loadAverage1m, processCpuMs } from './process-cpu.ts';

const BAUD = 115_200;
/**
 * The baud rate the Uno runs when a sketch asks for 115200: the Arduino core sets UBRR0 =
 * (16 MHz / 4 / 115200 - 1) / 2 = 16 with U2X0, so a bit is 8 × 17 cycles.
 */
const CHIP_BAUD = 16_000_000 / (8 * 17);
const BITS_PER_BYTE = 10; // 8N1: a start bit, eight data bits, a stop bit
const ROUND_TRIPS = 200;
const ROUNDS = 20;
const SRAM_START = 0x100;

/** One example as built and run: flash and static RAM from avr-size, the deepest stack seen in simavr. */
interface FirmwareFigures {
  example: string;
  flashBytes: number;
  ramBytes: number;
  stackPeakBytes: number;
}

/** What the `boards` entry of the bench reports. */
export interface BoardsBench {
  firmware: FirmwareFigures[];
  roundTrip: {
    calls: number;
    baud: number;
    medianMs: number;
    p99Ms: number;
    requestBytes: number;
    responseBytes: number;
    /** The time the bytes of one round trip take on the wire alone, at 10 bits a byte. */
    wireMs: number;
    medianOverWire: number;
    /** Median round trip less the wire time (goal ≤ 1 ms): the host, the pseudo-terminal, simavr's UART thread and the firmware's own work. */
    medianMinusWireMs: number;
    /** The baud rate the chip actually runs at for 115200 (2.1 % faster), and the wire time at it. */
    chipBaud: number;
    chipWireMs: number;
    /** Median round trip less the wire time at the chip's own baud rate. */
    medianMinusChipWireMs: number;
    /** How the simulated UART carries bytes. */
    uart: string;
    /** CPU time of this (the host's) process per round trip; simavr runs in its own process. */
    hostCpuMsPerCall: number;
    /**
     * CPU time of the simavr process per round trip (10 ms steps over all calls): paced to a real
     * clock, it needs this much CPU per call on time; on a loaded machine it waits for it.
     */
    simavrCpuMsPerCall?: number;
    /** The machine's 1-minute load average when the round trips ended (2 cores here). */
    loadAverage1m: number;
    pacing: string;
  };
  parallel: {
    devices: string;
    rounds: number;
    /** The simulated lamps answer after this long, the Uno's own median round trip, so all four weigh alike. */
    simulatedLatencyMs: number;
    parallelMs: number;
    serialMs: number;
    speedup: number;
    executedParallel: number;
    executedSerial: number;
  };
}

const round = (value: number): number => Math.round(value * 100) / 100;

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
}

function median(values: number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
}

/** Each example's size, and its stack at the deepest after a hello and a call of every tool. */
async function firmwareFigures(): Promise<FirmwareFigures[]> {
  // One entry per example: a new example without its workload fails the typecheck, not the bench.
  const workload: Record<Example, string[]> = {
    Lamp: ['{"id":2,"op":"call","tool":"set","args":{"on":true,"brightness":40}}', '{"id":3,"op":"call","tool":"get"}'],
    Sensor: ['{"id":2,"op":"call","tool":"read"}'],
    Lock: ['{"id":2,"op":"call","tool":"set","args":{"locked":false}}', '{"id":3,"op":"call","tool":"get"}'],
    Relay: [
      '{"id":2,"op":"call","tool":"set","args":{"channel":2,"on":true}}',
      '{"id":3,"op":"call","tool":"get","args":{"channel":2}}',
    ],
  };
  const figures: FirmwareFigures[] = [];
  for (const example of EXAMPLES) {
    const built = await buildExample(example);
    const board = await startSimavrBoard({ elfPath: built.elfPath });
    try {
      const client = await openListeningBoard(board);
      try {
        for (const line of ['{"id":1,"op":"hello"}', ...workload[example]!]) await client.request(line);
      } finally {
        await client.close();
      }
      figures.push({
        example,
        flashBytes: built.flashBytes,
        ramBytes: built.ramBytes,
        stackPeakBytes: await board.stackPeak(SRAM_START + built.ramBytes),
      });
    } finally {
      await board.kill();
    }
  }
  return figures;
}

async function runCall(tool: ToolDefinition, args: Record<string, unknown>, index: number): Promise<unknown> {
  const refusal = await tool.canUse?.({ conversationId: 'bench', caller: 'bench' }, args);
  if (refusal) throw refusal;
  return tool.handler(args, toolCallContext({ toolName: tool.name, index }));
}

/**
 * The boards bench: the examples' flash, RAM and stack; the round trip of a small call to a
 * simulated Uno (simavr paced to a real 16 MHz, UART at 115200 baud) beside the wire time of its
 * bytes; and one simulated Uno plus three simulated lamps, all at once against one after another.
 */
export async function benchBoards(): Promise<BoardsBench | { skipped: string }> {
  const missing = missingBoardPackages();
  if (missing.length > 0) return { skipped: `missing ${missing.join(', ')}: ${boardPackagesInstallLine(missing)}` };
  const firmware = await firmwareFigures();

  const uno = await startLinkedBoard({ example: 'Lamp' });
  const registry = new DeviceRegistry({ waysIn: builtinWaysIn(), callTimeoutMs: 10_000 });
  try {
    await registry.attach(uno.path, { grant: 'all' });
    const session = registry.get('uno-lamp-1')!.session;
    const samples: number[] = [];
    let result: unknown;
    let cpuBefore = process.cpuUsage();
    let simavrCpuBefore: number | undefined;
    for (let index = 0; index < 10 + ROUND_TRIPS; index += 1) {
      if (index === 10) {
        cpuBefore = process.cpuUsage();
        simavrCpuBefore = processCpuMs(uno.board.pid);
      }
      const start = performance.now();
      result = await session.call('get', {});
      if (index >= 10) samples.push(performance.now() - start);
    }
    const cpu = process.cpuUsage(cpuBefore);
    const simavrCpuAfter = processCpuMs(uno.board.pid);
    const loadAtEnd = loadAverage1m();
    samples.sort((a, b) => a - b);
    // What crossed the wire for one call, as the host and the library write it (id first, then ok, result).
    const id = 100;
    const requestBytes = Buffer.byteLength(encodeRequest(id, { op: 'call', tool: 'get', args: {} }));
    const responseBytes = Buffer.byteLength(`${JSON.stringify({ id, ok: true, result })}\n`);
    const wireMs = ((requestBytes + responseBytes) * BITS_PER_BYTE * 1000) / BAUD;
    const chipWireMs = ((requestBytes + responseBytes) * BITS_PER_BYTE * 1000) / CHIP_BAUD;
    const medianMs = percentile(samples, 0.5);
    const simulatedLatencyMs = Math.round(medianMs);

    const sim = await startSimulatedDevices({ kinds: ['lamp', 'lamp', 'lamp'], latencyMs: simulatedLatencyMs });
    try {
      for (const device of sim.devices) await registry.attach(device.path, { grant: 'all' });
      const set = createDevicesPlugin(registry)
        .tools()
        .find((tool) => tool.name === 'lamp__set')!;
      const ids = ['uno-lamp-1', ...sim.devices.map((device) => device.id)];
      let on = false;
      const calls = () => {
        on = !on;
        return ids.map((deviceId) => ({ device_id: deviceId, on }));
      };
      // Executed means answered with the state that was asked for, by the device itself.
      const executed = (results: unknown[], args: { on: boolean }[]) =>
        results.filter((value, index) => (value as { result?: { on?: boolean } }).result?.on === args[index]!.on)
          .length;
      const parallel: number[] = [];
      const serial: number[] = [];
      let executedParallel = 0;
      let executedSerial = 0;
      for (let index = 0; index < ROUNDS; index += 1) {
        let args = calls();
        let start = performance.now();
        const together = await Promise.all(args.map((callArgs, at) => runCall(set, callArgs, at)));
        parallel.push(performance.now() - start);
        executedParallel += executed(together, args);
        args = calls();
        start = performance.now();
        const oneByOne: unknown[] = [];
        for (const [at, callArgs] of args.entries()) oneByOne.push(await runCall(set, callArgs, at));
        serial.push(performance.now() - start);
        executedSerial += executed(oneByOne, args);
      }
      const parallelMs = median(parallel);
      const serialMs = median(serial);
      return {
        firmware,
        roundTrip: {
          calls: ROUND_TRIPS,
          baud: BAUD,
          medianMs: round(medianMs),
          p99Ms: round(percentile(samples, 0.99)),
          requestBytes,
          responseBytes,
          wireMs: round(wireMs),
          medianOverWire: round(medianMs / wireMs),
          medianMinusWireMs: round(medianMs - wireMs),
          chipBaud: Math.round(CHIP_BAUD),
          chipWireMs: round(chipWireMs),
          medianMinusChipWireMs: round(medianMs - chipWireMs),
          uart: '8N1, 10 bits a byte; each byte reaches the other side when its stop bit ends',
          hostCpuMsPerCall: Math.round(((cpu.user + cpu.system) / 1000 / ROUND_TRIPS) * 1000) / 1000,
          ...(simavrCpuBefore !== undefined && simavrCpuAfter !== undefined
            ? { simavrCpuMsPerCall: round((simavrCpuAfter - simavrCpuBefore) / ROUND_TRIPS) }
            : {}),
          loadAverage1m: loadAtEnd,
          pacing: 'simavr paced to a real 16 MHz clock',
        },
        parallel: {
          devices: '1 simulated Uno (Lamp example) + 3 simulated lamps, one lamp__set each',
          rounds: ROUNDS,
          simulatedLatencyMs,
          parallelMs: round(parallelMs),
          serialMs: round(serialMs),
          speedup: round(serialMs / parallelMs),
          executedParallel,
          executedSerial,
        },
      };
    } finally {
      await registry.dispose();
      await sim.close();
    }
  } finally {
    await registry.dispose();
    await uno.close();
  }
}
