import { parseArgs } from 'node:util';
import path from 'node:path';
import { deviceIdentitySchema } from '../../../devices/protocol/frame-schema.ts';
import { announceSimulator } from '../../../devices/simulator/simulator-index.ts';
import { SIMULATED_KINDS, isSimulatedKind } from '../../../devices/simulator/device-catalog.ts';
import type { SimulatedKind } from '../../../devices/simulator/device-catalog.ts';
import { startSimulatedDevices } from '../../../devices/simulator/start-simulated-devices.ts';
import { BUILTIN_PROFILES } from '../../../devices/profiles/resolve-profile.ts';

export const SIM_USAGE = `home-agent sim [--latency-ms N] [--devices ${SIMULATED_KINDS.join(',')},...] [--dir DIR] [--ids ID,...]`;

/**
 * `home-agent sim`: runs simulated devices behind socat pseudo-terminals, prints one line per
 * device `<id> <kind> <path>`, then `<id> state <json>` after each call, and runs until the signal
 * aborts. `--dir DIR` puts the ports at `DIR/<kind>-<n>` (the same path after a restart); `--ids`
 * gives the devices other ids (a device that comes back as another one). The ports are announced
 * for `devices scan`. Exit 0 after a clean stop, 1 when the devices cannot start (socat missing),
 * 2 for a wrong command line.
 */
export async function runSimCommand(
  argv: string[],
  io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream; signal: AbortSignal },
): Promise<number> {
  let kinds: SimulatedKind[];
  let latencyMs: number;
  let directory: string | undefined;
  let ids: string[] | undefined;
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        'latency-ms': { type: 'string' },
        devices: { type: 'string' },
        dir: { type: 'string' },
        ids: { type: 'string' },
        help: { type: 'boolean' },
      },
      strict: true,
    });
    if (values.help) {
      io.stdout.write(`usage: ${SIM_USAGE}\n`);
      return 0;
    }
    latencyMs = values['latency-ms'] === undefined ? 250 : Number(values['latency-ms']);
    if (!Number.isInteger(latencyMs) || latencyMs < 0 || latencyMs > 600_000)
      throw new Error('--latency-ms must be a whole number of milliseconds');
    const names = (values.devices ?? 'lamp,lamp,thermometer,display')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean);
    const unknown = names.filter((name) => !isSimulatedKind(name));
    if (unknown.length > 0 || names.length === 0)
      throw new Error(`unknown device kind ${unknown.join(', ') || '(none)'}; known: ${SIMULATED_KINDS.join(', ')}`);
    kinds = names as SimulatedKind[];
    if (values.dir !== undefined && values.dir.trim() === '') throw new Error('--dir needs a folder');
    directory = values.dir === undefined ? undefined : path.resolve(values.dir);
    ids = values.ids === undefined ? undefined : values.ids.split(',').map((id) => id.trim());
    if (ids !== undefined) {
      const bad = ids.filter((id) => !deviceIdentitySchema.shape.id.safeParse(id).success);
      if (bad.length > 0 || ids.length !== kinds.length)
        throw new Error(
          bad.length > 0
            ? `--ids: ${bad.map((id) => `'${id}'`).join(', ')} is not a device id (letters, digits, . _ -)`
            : `--ids gives ${ids.length} id${ids.length === 1 ? '' : 's'} for ${kinds.length} device${kinds.length === 1 ? '' : 's'}: give one per device, in the order of --devices`,
        );
    }
  } catch (error) {
    // A wrong flag goes to main, which says what was meant (did you mean) and prints this command's usage.
    if ((error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) throw error;
    io.stderr.write(`home-agent sim: ${(error as Error).message}\nusage: ${SIM_USAGE}\n`);
    return 2;
  }
  if (io.signal.aborted) return 0;
  let simulated;
  try {
    simulated = await startSimulatedDevices({
      kinds,
      latencyMs,
      signal: io.signal,
      ...(directory !== undefined ? { directory } : {}),
      ...(ids !== undefined ? { ids } : {}),
    });
  } catch (error) {
    if (io.signal.aborted) return 0;
    io.stderr.write(`home-agent sim: cannot start the devices: ${(error as Error).message} (is socat installed?)\n`);
    return 1;
  }
  // Pseudo-terminals appear in no serial port list: announced, `devices scan` finds them without opening them.
  const profileNameOf = (device: (typeof simulated.devices)[number]): string | undefined =>
    Object.entries(BUILTIN_PROFILES).find(([, candidate]) => candidate === device.profile)?.[0];
  const announced = simulated.devices.map((device) => {
    const profile = profileNameOf(device);
    return { path: device.path, id: device.id, kind: device.kind, ...(profile ? { profile } : {}) };
  });
  const announcement = await announceSimulator({ devices: announced }).catch((error: unknown) => {
    io.stderr.write(`home-agent sim: devices scan will not list these ports: ${(error as Error).message}\n`);
    return undefined;
  });
  for (const device of simulated.devices) io.stdout.write(`${device.id} ${device.kind} ${device.path}\n`);
  for (const device of simulated.devices) {
    const profile = profileNameOf(device);
    if (profile)
      io.stderr.write(
        `home-agent sim: ${device.id} speaks plain lines: attach it with --device ${device.path},profile=${profile} or pair it with --profile ${profile}\n`,
      );
  }
  // After every call, the device's state: so a person (or a test) sees what the host really did.
  const unsubscribe = simulated.devices.map((device) =>
    device.firmware.onLog((entry) => {
      if (entry.type !== 'end') return;
      const state = (device.firmware.model as { state?: unknown }).state;
      io.stdout.write(`${device.id} state ${JSON.stringify(state ?? null)}\n`);
    }),
  );
  await new Promise<void>((resolve) => {
    if (io.signal.aborted) return resolve();
    io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  for (const stop of unsubscribe) stop();
  await announcement?.close();
  await simulated.close();
  return 0;
}
