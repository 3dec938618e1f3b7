import { performance, PerformanceObserver } from 'node:perf_hooks';
import type { ToolDefinition } from '../../core/tools/tool-definition.ts';
import { DeviceRegistry } from '../../devices/registry/device-registry.ts';
import { startSimulatedDevices } from '../../devices/simulator/start-simulated-devices.ts';
import type { SimulatedDevices } from '../../devices/simulator/start-simulated-devices.ts';
import { createDevicesPlugin } from '../../devices/tools/devices-plugin.ts';
import { toolCallContext } from '../helpers/device-tool-context.ts';
import { builtinWaysIn } from '../../devices/ways-in/builtin-ways-in.ts';
import { loadAverage1m } from './process-cpu.ts';

const DEVICE_LATENCY_MS = 250;
const ROUND_TRIPS = 200;

interface Rig {
  sim: SimulatedDevices;
  registry: DeviceRegistry;
  calls: { tool: ToolDefinition; args: Record<string, unknown> }[];
}

async function startRig(latencyMs: number): Promise<Rig> {
  const sim = await startSimulatedDevices({ kinds: ['lamp', 'lamp', 'thermometer', 'display'], latencyMs });
  const registry = new DeviceRegistry({ waysIn: builtinWaysIn(), callTimeoutMs: 10_000 });
  for (const device of sim.devices) await registry.attach(device.path, { grant: 'all' });
  const tools = createDevicesPlugin(registry).tools();
  const tool = (name: string): ToolDefinition => tools.find((candidate) => candidate.name === name)!;
  const calls = [
    { tool: tool('lamp__set'), args: { device_id: 'lamp-1', on: true } },
    { tool: tool('lamp__set'), args: { device_id: 'lamp-2', on: true } },
    { tool: tool('thermometer__read'), args: { device_id: 'thermometer-1' } },
    { tool: tool('display__show'), args: { device_id: 'display-1', text: 'bench' } },
  ];
  return { sim, registry, calls };
}

async function stopRig(rig: Rig): Promise<void> {
  await rig.registry.dispose();
  await rig.sim.close();
}

function executedCalls(rig: Rig): number {
  return rig.sim.devices.reduce((sum, device) => sum + device.firmware.stats.calls, 0);
}

async function runCall(call: Rig['calls'][number], index: number): Promise<void> {
  const refusal = await call.tool.canUse?.({ conversationId: 'bench', caller: 'bench' }, call.args);
  if (refusal) throw refusal;
  await call.tool.handler(call.args, toolCallContext({ toolName: call.tool.name, index }));
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
}

/**
 * Four simulated devices on four pseudo-terminals (socat + real serialport), one 250 ms call each,
 * all at once against one after another, counting the calls the devices really executed; then the
 * round trip of one small call at zero device latency (median and p99 over 200 calls).
 */
export async function benchDevices(): Promise<{
  n: number;
  parallelMs: number;
  serialMs: number;
  speedup: number;
  executedParallel: number;
  executedSerial: number;
  roundTripMedianMs: number;
  roundTripP99Ms: number;
  /** CPU time (user + system, all threads) of this process per round trip: the host's side and the simulated device's, both in this process. */
  roundTripCpuMsPerCall: number;
  /** Garbage-collection pauses of this process during the round trips, in all (ms) and the longest. */
  roundTripGcMs: number;
  roundTripMaxGcMs: number;
  /** The machine's 1-minute load average when the round trips ended (2 cores here): read p99 beside it. */
  loadAverage1m: number;
  deviceLatencyMs: number;
}> {
  const slow = await startRig(DEVICE_LATENCY_MS);
  let parallelMs: number;
  let serialMs: number;
  let executedParallel: number;
  let executedSerial: number;
  try {
    const before = executedCalls(slow);
    let start = performance.now();
    await Promise.all(slow.calls.map((call, index) => runCall(call, index)));
    parallelMs = performance.now() - start;
    executedParallel = executedCalls(slow) - before;
    const middle = executedCalls(slow);
    start = performance.now();
    for (const [index, call] of slow.calls.entries()) await runCall(call, index);
    serialMs = performance.now() - start;
    executedSerial = executedCalls(slow) - middle;
  } finally {
    await stopRig(slow);
  }

  const fast = await startRig(0);
  const samples: number[] = [];
  const pauses: number[] = [];
  const gc = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) pauses.push(entry.duration);
  });
  let cpuMs: number;
  try {
    const call = fast.calls[0]!;
    for (let index = 0; index < 10; index += 1) await runCall(call, index);
    gc.observe({ entryTypes: ['gc'] });
    const cpuBefore = process.cpuUsage();
    for (let index = 0; index < ROUND_TRIPS; index += 1) {
      const start = performance.now();
      await runCall(call, index);
      samples.push(performance.now() - start);
    }
    const cpu = process.cpuUsage(cpuBefore);
    cpuMs = (cpu.user + cpu.system) / 1000;
    // Pauses not yet handed to the callback (it runs later) are taken here, so none is missed.
    for (const entry of gc.takeRecords()) pauses.push(entry.duration);
  } finally {
    gc.disconnect();
    await stopRig(fast);
  }
  samples.sort((a, b) => a - b);
  const round = (value: number): number => Math.round(value * 100) / 100;
  return {
    n: slow.calls.length,
    parallelMs: round(parallelMs),
    serialMs: round(serialMs),
    speedup: round(serialMs / parallelMs),
    executedParallel,
    executedSerial,
    roundTripMedianMs: round(percentile(samples, 0.5)),
    roundTripP99Ms: round(percentile(samples, 0.99)),
    roundTripCpuMsPerCall: Math.round((cpuMs / ROUND_TRIPS) * 1000) / 1000,
    roundTripGcMs: round(pauses.reduce((sum, pause) => sum + pause, 0)),
    roundTripMaxGcMs: round(Math.max(0, ...pauses)),
    loadAverage1m: loadAverage1m(),
    deviceLatencyMs: DEVICE_LATENCY_MS,
  };
}
