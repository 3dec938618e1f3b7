import { access, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';

/** A port a running `home-agent sim` offers, as it announced it. */
export interface AnnouncedPort {
  path: string;
  id: string;
  kind: string;
  /** The profile the host needs to reach it, for a device that speaks plain lines (`at-relay-4`). */
  profile?: string;
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
      }),
    )
    .max(256),
});

/**
 * Where running simulators announce their ports, one small JSON file per process: pseudo-terminals
 * appear in no serial port list, so this is how a scan finds them without opening anything.
 * `HOME_AGENT_SIM_INDEX` moves it (tests keep their simulators to themselves).
 */
export function simulatorIndexDirectory(): string {
  return process.env.HOME_AGENT_SIM_INDEX || join(tmpdir(), 'home-agent-sims');
}

/** Announces this process's simulated ports; `close()` withdraws them (a killed process is skipped by its pid). */
export async function announceSimulator(options: {
  devices: readonly { path: string; id: string; kind: string; profile?: string }[];
  directory?: string;
}): Promise<{ close(): Promise<void> }> {
  const directory = options.directory ?? simulatorIndexDirectory();
  await mkdir(directory, { recursive: true });
  const file = join(directory, `${process.pid}.json`);
  const devices = options.devices.map(({ path, id, kind, profile }) => ({
    path,
    id,
    kind,
    ...(profile !== undefined ? { profile } : {}),
  }));
  await writeFile(file, JSON.stringify({ pid: process.pid, devices }), { mode: 0o644 });
  return { close: () => rm(file, { force: true }) };
}

/**
 * The ports of the simulators running now: announcements of live processes whose ports exist.
 * Never throws; an unreadable announcement is skipped.
 */
export async function listAnnouncedPorts(options: { directory?: string } = {}): Promise<AnnouncedPort[]> {
  const directory = options.directory ?? simulatorIndexDirectory();
  let names: string[];
  try {
    names = (await readdir(directory)).filter((name) => /^\d+\.json$/.test(name)).sort();
  } catch {
    // No simulator ever announced itself here: nothing to list.
    return [];
  }
  const found: AnnouncedPort[] = [];
  for (const name of names) {
    const parsed = announcementSchema.safeParse(await readJson(join(directory, name)));
    if (!parsed.success || !isAlive(parsed.data.pid)) continue;
    for (const device of parsed.data.devices) {
      if (await exists(device.path)) found.push({ ...device, pid: parsed.data.pid });
    }
  }
  return found;
}

async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as unknown;
  } catch {
    // Half-written or removed meanwhile: treated as no announcement (the zod parse refuses undefined).
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
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
