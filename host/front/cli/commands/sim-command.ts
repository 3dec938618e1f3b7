import { parseArgs } from 'node:util';
import path from 'node:path';
import { deviceIdentitySchema } from '../../../../devices/protocol/frame-schema.ts';
import { announceSimulator, listAnnouncedSimulators } from '../../../../devices/simulator/simulator-index.ts';
import { SIMULATED_KINDS, isSimulatedKind } from '../../../../devices/simulator/device-catalog.ts';
import type { SimulatedKind } from '../../../../devices/simulator/device-catalog.ts';
import { chooseSimulatedIds } from '../../../../devices/simulator/choose-simulated-ids.ts';
import { claimSimulatorFolder, type SimulatorFolder } from '../../../../devices/simulator/simulator-folder.ts';
import { startSimulatedDevices } from '../../../../devices/simulator/start-simulated-devices.ts';
import { BUILTIN_PROFILES } from '../../../../devices/profiles/resolve-profile.ts';
import { listAnnouncedHosts } from '../../../devices/host-announcement.ts';
import { SIM_USAGE } from './sim-help.ts';

/**
 * `home-agent sim`: runs simulated devices behind socat pseudo-terminals, prints one line per
 * device `<id> <kind> <path>`, then `<id> state <json>` after each call, and runs until the signal
 * aborts. Ids are `<kind>-<n>`, skipping ids a running host or simulator announced; the ports sit in
 * a stable folder (`--dir DIR`, else a default one in the simulator index), and a simulator started
 * the same way again keeps its ids and paths. What it chose is said on stderr. `--ids` gives the
 * devices other ids (a device that comes back as another one). The ports are announced for `devices
 * scan`. Exit 0 after a clean stop, 1 when the devices cannot start (socat missing, --dir in use),
 * 2 for a wrong command line.
 */
export async function runSimCommand(
  argv: string[],
  io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream; signal: AbortSignal },
): Promise<number> {
  const say = (line: string): void => void io.stderr.write(`home-agent sim: ${line}\n`);
  let options: SimOptions;
  try {
    options = readSimOptions(argv);
  } catch (error) {
    // A wrong flag goes to main, which says what was meant (did you mean) and prints this command's usage.
    if ((error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) throw error;
    io.stderr.write(`home-agent sim: ${(error as Error).message}\nusage: ${SIM_USAGE}\n`);
    return 2;
  }
  if (options.help) {
    io.stdout.write(`usage: ${SIM_USAGE}\n`);
    return 0;
  }
  if (io.signal.aborted) return 0;
  let folder: SimulatorFolder;
  try {
    folder = await claimSimulatorFolder({
      kinds: options.kinds,
      ...(options.directory !== undefined ? { directory: options.directory } : {}),
    });
  } catch (error) {
    say((error as Error).message);
    return 1;
  }
  try {
    return await runInFolder(options, folder, io, say);
  } finally {
    await folder.release();
  }
}

interface SimOptions {
  help: boolean;
  kinds: SimulatedKind[];
  latencyMs: number;
  directory?: string;
  ids?: string[];
}

function readSimOptions(argv: string[]): SimOptions {
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
  const latencyMs = values['latency-ms'] === undefined ? 250 : Number(values['latency-ms']);
  if (!Number.isInteger(latencyMs) || latencyMs < 0 || latencyMs > 600_000)
    throw new Error(
      `--latency-ms must be a whole number of milliseconds from 0 to 600000, got '${values['latency-ms']}'`,
    );
  const names = (values.devices ?? 'lamp,lamp,thermometer,display')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => !isSimulatedKind(name));
  if (unknown.length > 0 || names.length === 0)
    throw new Error(`unknown device kind ${unknown.join(', ') || '(none)'}; known: ${SIMULATED_KINDS.join(', ')}`);
  const kinds = names as SimulatedKind[];
  if (values.dir !== undefined && values.dir.trim() === '') throw new Error('--dir needs a folder');
  const ids = values.ids === undefined ? undefined : values.ids.split(',').map((id) => id.trim());
  if (ids !== undefined) {
    const bad = ids.filter((id) => !deviceIdentitySchema.shape.id.safeParse(id).success);
    if (bad.length > 0 || ids.length !== kinds.length)
      throw new Error(
        bad.length > 0
          ? `--ids: ${bad.map((id) => `'${id}'`).join(', ')} is not a device id (letters, digits, . _ -)`
          : `--ids gives ${ids.length} id${ids.length === 1 ? '' : 's'} for ${kinds.length} device${kinds.length === 1 ? '' : 's'}: give one per device, in the order of --devices`,
      );
  }
  return {
    help: values.help === true,
    kinds,
    latencyMs,
    ...(values.dir !== undefined ? { directory: path.resolve(values.dir) } : {}),
    ...(ids !== undefined ? { ids } : {}),
  };
}

/** The ids in use by other running processes, each with who uses it (`home-agent serve (pid 12)`). */
async function idsInUse(folder: string): Promise<Map<string, string>> {
  const inUse = new Map<string, string>();
  for (const host of await listAnnouncedHosts()) {
    for (const device of host.devices) {
      // A host that paired this folder's devices before holds them as ours: they are no collision.
      if (path.dirname(device.path) === folder) continue;
      if (!inUse.has(device.id)) inUse.set(device.id, `${host.command} (pid ${host.pid})`);
    }
  }
  for (const sim of await listAnnouncedSimulators()) {
    if (sim.pid === process.pid) continue;
    for (const device of sim.devices)
      if (!inUse.has(device.id)) inUse.set(device.id, `another home-agent sim (pid ${sim.pid})`);
  }
  return inUse;
}

async function runInFolder(
  options: SimOptions,
  folder: SimulatorFolder,
  io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream; signal: AbortSignal },
  say: (line: string) => void,
): Promise<number> {
  for (const passed of folder.passedOver)
    say(`${passed.directory} is in use by another home-agent sim (pid ${passed.pid}): using ${folder.directory}`);
  const inUse = await idsInUse(folder.directory);
  const names = chooseSimulatedIds({
    kinds: options.kinds,
    taken: new Set(inUse.keys()),
    ...(folder.previousNames ? { previous: folder.previousNames } : {}),
  });
  await folder.record({ kinds: options.kinds, names });
  sayChosen({ kinds: options.kinds, names, inUse, given: options.ids, kept: folder.previousNames, say });
  say(`ports in ${folder.directory} (the same paths when started again the same way)`);
  let simulated;
  try {
    simulated = await startSimulatedDevices({
      kinds: options.kinds,
      latencyMs: options.latencyMs,
      signal: io.signal,
      directory: folder.directory,
      portNames: names,
      ...(options.ids !== undefined ? { ids: options.ids } : {}),
    });
  } catch (error) {
    if (io.signal.aborted) return 0;
    say(`cannot start the devices: ${(error as Error).message} (is socat installed?)`);
    return 1;
  }
  // Pseudo-terminals appear in no serial port list: announced, `devices scan` finds them without opening them.
  const profileNameOf = (device: (typeof simulated.devices)[number]): string | undefined =>
    Object.entries(BUILTIN_PROFILES).find(([, candidate]) => candidate === device.profile)?.[0];
  const announced = simulated.devices.map((device) => {
    const profile = profileNameOf(device);
    const { model, firmware } = device.firmware.identity;
    return { path: device.path, id: device.id, kind: device.kind, model, firmware, ...(profile ? { profile } : {}) };
  });
  const announcement = await announceSimulator({ devices: announced }).catch((error: unknown) => {
    say(`devices scan will not list these ports: ${(error as Error).message}`);
    return undefined;
  });
  for (const device of simulated.devices) io.stdout.write(`${device.id} ${device.kind} ${device.path}\n`);
  for (const device of simulated.devices) {
    const profile = profileNameOf(device);
    if (profile)
      say(
        `${device.id} speaks plain lines: attach it with --device ${device.path},profile=${profile} or pair it with --profile ${profile}`,
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

/** Says on stderr which ids were passed over and why, the ids kept from the last run, and a given id someone else has. */
function sayChosen(options: {
  kinds: readonly SimulatedKind[];
  names: readonly string[];
  inUse: ReadonlyMap<string, string>;
  given: readonly string[] | undefined;
  kept: readonly string[] | undefined;
  say: (line: string) => void;
}): void {
  const { names, inUse, say } = options;
  if (options.given !== undefined) {
    for (const id of options.given) {
      const user = inUse.get(id);
      if (user !== undefined) say(`${id} is also a device of ${user}: pairing this one will say its id is taken`);
    }
    return;
  }
  const first = chooseSimulatedIds({ kinds: options.kinds, taken: new Set() });
  const skipped = [...new Set(first.filter((id, index) => names[index] !== id && inUse.has(id)))];
  const users = [...new Set(skipped.map((id) => inUse.get(id)!))];
  const keptIds = names.filter((id, index) => options.kept?.[index] === id && first[index] !== id);
  if (skipped.length > 0)
    say(
      `${skipped.join(', ')} ${skipped.length === 1 ? 'is' : 'are'} in use by ${users.join(' and ')}: these devices are ${names.join(', ')}`,
    );
  else if (keptIds.length > 0) say(`these devices keep the ids of their last run here: ${names.join(', ')}`);
  else say(`these devices are ${names.join(', ')}`);
}
