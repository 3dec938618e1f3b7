import { access, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { ensurePrivateDirectory, isOwnDirectory } from './private-directory.ts';

/** A port a running `home-agent sim` offers, as it announced it. */
export interface AnnouncedPort {
  path: string;
  id: string;
  kind: string;
  /** The profile the host needs to reach it, for a device that speaks plain lines (`at-relay-4`). */
  profile?: string;
  /** The model and firmware its hello will give (absent from simulators before they were announced). */
  model?: string;
  firmware?: string;
  /** The simulator's process. */
  pid: number;
}

const announcementSchema = z.object({
  pid: z.number().int().positive(),
  devices: z
    .array(
      z.object({
        path: z.string().min(1),
        id: z.string().min(1),
        kind: z.string().min(1),
        profile: z.string().min(1).optional(),
        model: z.string().max(100).optional(),
        firmware: z.string().max(100).optional(),
      }),
    )
    .max(256),
});

/** What one running simulator announced. */
export type SimulatorAnnouncement = z.infer<typeof announcementSchema>;

/** A simulator's announcement file: `<pid>.json` (hosts announce in the same folder under another name). */
const SIMULATOR_FILE = /^(\d+)\.json$/;

/**
 * Where running simulators announce their ports, one small JSON file per process: pseudo-terminals
 * appear in no serial port list, so this is how a scan finds them without opening anything. Running
 * hosts announce their devices here too, and `home-agent sim` keeps its default port folders here.
 * It is the user's own (0700): `$XDG_RUNTIME_DIR/home-agent-sims`, else `home-agent-sims-<uid>` in
 * the temp folder, never one folder shared by every user of the machine. `HOME_AGENT_SIM_INDEX`
 * moves it (tests keep their simulators to themselves).
 */
export function simulatorIndexDirectory(env: NodeJS.ProcessEnv = process.env): string {
  if (env.HOME_AGENT_SIM_INDEX) return env.HOME_AGENT_SIM_INDEX;
  if (env.XDG_RUNTIME_DIR) return join(env.XDG_RUNTIME_DIR, 'home-agent-sims');
  return join(tmpdir(), `home-agent-sims-${process.getuid?.() ?? 'user'}`);
}

/** Announces this process's simulated ports; `close()` withdraws them (a killed process is skipped by its pid). */
export async function announceSimulator(options: {
  devices: readonly { path: string; id: string; kind: string; profile?: string; model?: string; firmware?: string }[];
  directory?: string;
}): Promise<{ close(): Promise<void> }> {
  const directory = options.directory ?? simulatorIndexDirectory();
  const devices = options.devices.map(({ path, id, kind, profile, model, firmware }) => ({
    path,
    id,
    kind,
    ...(profile !== undefined ? { profile } : {}),
    ...(model !== undefined ? { model } : {}),
    ...(firmware !== undefined ? { firmware } : {}),
  }));
  const file = await writeAnnouncement({
    directory,
    name: `${process.pid}.json`,
    content: { pid: process.pid, devices },
  });
  return { close: () => rm(file, { force: true }) };
}

/** The announcements of the simulators running now (live processes only; unreadable files skipped). Never throws. */
export async function listAnnouncedSimulators(options: { directory?: string } = {}): Promise<SimulatorAnnouncement[]> {
  return readLiveAnnouncements({
    directory: options.directory ?? simulatorIndexDirectory(),
    pattern: SIMULATOR_FILE,
    schema: announcementSchema,
  });
}

/**
 * The ports of the simulators running now: announcements of live processes whose ports exist.
 * Never throws; an unreadable announcement is skipped.
 */
export async function listAnnouncedPorts(options: { directory?: string } = {}): Promise<AnnouncedPort[]> {
  const found: AnnouncedPort[] = [];
  for (const announcement of await listAnnouncedSimulators(options)) {
    for (const device of announcement.devices) {
      if (await exists(device.path)) found.push({ ...device, pid: announcement.pid });
    }
  }
  return found;
}

/**
 * Writes one process's announcement as `directory/name`, whole or not at all (a reader never sees
 * half a file), and removes the announcements of processes that are gone. Returns the file.
 */
export async function writeAnnouncement(options: {
  directory: string;
  name: string;
  content: { pid: number } & Record<string, unknown>;
}): Promise<string> {
  await ensurePrivateDirectory(options.directory);
  await sweepDeadAnnouncements(options.directory);
  const file = join(options.directory, options.name);
  const partial = `${file}.${process.pid}.partial`;
  await writeFile(partial, JSON.stringify(options.content), { mode: 0o644 });
  await rename(partial, file);
  return file;
}

/**
 * The announcements in `directory` whose names match `pattern`, that parse with `schema` and whose
 * process is alive, in name order. Never throws: a missing folder, one of another user's (its files
 * are not this user's word) or an unreadable file is none.
 */
export async function readLiveAnnouncements<T extends { pid: number }>(options: {
  directory: string;
  pattern: RegExp;
  schema: z.ZodType<T>;
}): Promise<T[]> {
  if (!(await isOwnDirectory(options.directory))) return [];
  let names: string[];
  try {
    names = (await readdir(options.directory)).filter((name) => options.pattern.test(name)).sort();
  } catch {
    // Nothing ever announced itself here: nothing to list.
    return [];
  }
  const found: T[] = [];
  for (const name of names) {
    const parsed = options.schema.safeParse(await readJson(join(options.directory, name)));
    if (parsed.success && isAlive(parsed.data.pid)) found.push(parsed.data);
  }
  return found;
}

/** Whether a process is running (one of another user counts). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes `<pid>.json` and `<name>-<pid>.json` files of processes that are gone (a killed process leaves its own). */
async function sweepDeadAnnouncements(directory: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(directory);
  } catch {
    // The folder was just made, or went away: nothing to sweep.
    return;
  }
  for (const name of names) {
    const pid = Number(/^(?:[a-z]+-)?(\d+)\.json$/.exec(name)?.[1]);
    if (Number.isInteger(pid) && pid > 0 && !isAlive(pid))
      await rm(join(directory, name), { force: true }).catch(() => {
        // Removed meanwhile by another process sweeping too: readers ignore dead pids anyway.
      });
  }
}

async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as unknown;
  } catch {
    // Removed meanwhile, or not ours to read: treated as no announcement (the zod parse refuses undefined).
    return undefined;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    // A link whose pseudo-terminal is gone: the simulator is stopping.
    return false;
  }
}
