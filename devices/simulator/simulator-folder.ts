import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { ensurePrivateDirectory } from './private-directory.ts';
import { isAlive, simulatorIndexDirectory } from './simulator-index.ts';

/** What the last simulator in a folder ran: its kinds and the names of their ports (and default ids), in order. */
const recordSchema = z.object({
  kinds: z.array(z.string().max(64)).max(256),
  names: z.array(z.string().max(64)).max(256),
});

/** The record of what ran here last; it stays after the simulator stops, so the next start keeps the names. */
const RECORD_FILE = 'home-agent-sim.json';
/** The process id of the simulator running here now; a killed simulator's is stale (its process is gone). */
const LOCK_FILE = 'home-agent-sim.pid';
/** How many default folders a machine may have (one per simulator running at once). */
const DEFAULT_FOLDERS = 32;

/** A folder a simulator holds for its ports. */
export interface SimulatorFolder {
  directory: string;
  /** The port names the last simulator here gave the same kinds, when it ran the same kinds. */
  previousNames?: string[];
  /** Default folders passed over because another running simulator holds them. */
  passedOver: { directory: string; pid: number }[];
  /** Records the names given now (kept after release: the next start the same way keeps them). */
  record(state: { kinds: readonly string[]; names: readonly string[] }): Promise<void>;
  /** Lets the folder go (the record stays). */
  release(): Promise<void>;
}

/** The folder given with --dir is held by another running simulator. */
export class SimulatorFolderInUseError extends Error {
  constructor(
    readonly directory: string,
    readonly pid: number,
  ) {
    super(
      `${directory} is in use by another home-agent sim (pid ${pid}): stop that one, or give another --dir (or none: each simulator gets its own default folder)`,
    );
    this.name = 'SimulatorFolderInUseError';
  }
}

/**
 * Takes a folder for a simulator's ports. With `directory` (--dir) that folder, or
 * SimulatorFolderInUseError when a running simulator holds it. Without, a stable default folder in
 * the simulator index (`<index>/sim-1`, `sim-2`, …): the first one no running simulator holds,
 * preferring one whose last simulator ran the same kinds — so a simulator started the same way
 * again gets the same folder, and with its record the same names.
 */
export async function claimSimulatorFolder(options: {
  kinds: readonly string[];
  directory?: string;
  /** The simulator index (default: simulatorIndexDirectory()). */
  index?: string;
}): Promise<SimulatorFolder> {
  if (options.directory !== undefined) {
    const held = await lock(options.directory);
    if (held !== undefined) throw new SimulatorFolderInUseError(options.directory, held);
    return folder(options.directory, options.kinds, []);
  }
  const index = options.index ?? simulatorIndexDirectory();
  // The folders inside are made with the index's privacy: another user must not plant a port there.
  await ensurePrivateDirectory(index);
  const candidates = Array.from({ length: DEFAULT_FOLDERS }, (_, number) => join(index, `sim-${number + 1}`));
  const passedOver: { directory: string; pid: number }[] = [];
  // First a folder that last ran these kinds, then any free one.
  for (const sameKindsOnly of [true, false]) {
    for (const directory of candidates) {
      if (passedOver.some((entry) => entry.directory === directory)) continue;
      if (sameKindsOnly && !sameKinds(await readRecord(directory), options.kinds)) continue;
      const held = await lock(directory);
      if (held === undefined) return folder(directory, options.kinds, passedOver);
      passedOver.push({ directory, pid: held });
    }
  }
  throw new Error(
    `all ${DEFAULT_FOLDERS} default simulator folders in ${index} are in use: stop a simulator, or give --dir`,
  );
}

async function folder(directory: string, kinds: readonly string[], passedOver: SimulatorFolder['passedOver']) {
  const record = await readRecord(directory);
  return {
    directory,
    ...(record && sameKinds(record, kinds) ? { previousNames: record.names } : {}),
    passedOver: passedOver.filter((entry) => entry.directory !== directory),
    record: async (state: { kinds: readonly string[]; names: readonly string[] }) => {
      await writeFile(join(directory, RECORD_FILE), JSON.stringify({ kinds: state.kinds, names: state.names }));
    },
    release: () => rm(join(directory, LOCK_FILE), { force: true }),
  } satisfies SimulatorFolder;
}

/**
 * Takes `directory` for this process (made when missing): undefined when taken, else the pid of the
 * running simulator that holds it. A lock whose process is gone is stale and taken over.
 */
async function lock(directory: string): Promise<number | undefined> {
  await mkdir(directory, { recursive: true });
  const file = join(directory, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      await writeFile(file, String(process.pid), { flag: 'wx' });
      return undefined;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const pid = Number((await readFile(file, 'utf8').catch(() => '')).trim());
    // This process counts as running too: a second simulator in one process must not share the folder.
    if (Number.isInteger(pid) && pid > 0 && (pid === process.pid || isAlive(pid))) return pid;
    await rm(file, { force: true });
  }
  throw new Error(`could not take ${directory}: another simulator keeps taking it`);
}

async function readRecord(directory: string): Promise<z.infer<typeof recordSchema> | undefined> {
  try {
    const parsed = recordSchema.safeParse(JSON.parse(await readFile(join(directory, RECORD_FILE), 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    // No record yet, or one that does not read: the names are chosen afresh.
    return undefined;
  }
}

function sameKinds(record: z.infer<typeof recordSchema> | undefined, kinds: readonly string[]): boolean {
  return (
    record !== undefined &&
    record.kinds.length === kinds.length &&
    record.names.length === kinds.length &&
    record.kinds.every((kind, index) => kind === kinds[index])
  );
}
