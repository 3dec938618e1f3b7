import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { deviceIdentitySchema } from '../../devices/protocol/frame-schema.ts';
import {
  readLiveAnnouncements,
  simulatorIndexDirectory,
  writeAnnouncement,
} from '../../devices/simulator/simulator-index.ts';

/** Text another process wrote that may reach a terminal: no control characters (no escape sequences). */
const plainText = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[^\p{Cc}]*$/u, 'no control characters');

const hostAnnouncementSchema = z.object({
  pid: z.number().int().positive(),
  /** How a person would name the process: `home-agent serve`, `npm start (…)`, the desktop window. */
  command: plainText(200),
  devices: z.array(z.object({ id: deviceIdentitySchema.shape.id, path: plainText(4096) })).max(1024),
});

/** What one running host announced: its process, how it was started, and the ids and ports of its devices. */
export type HostAnnouncement = z.infer<typeof hostAnnouncementSchema>;

/** A host's file in the simulator index: `host-<pid>.json` (a simulator's is `<pid>.json`). */
const HOST_FILE = /^host-\d+\.json$/;

/**
 * How a person would name a host process: the command its front end says it was started with
 * (`home-agent serve`, never its flags: a token may be among them), inside `npm start (…)` when npm started it.
 */
export function hostCommandName(command: string, env: NodeJS.ProcessEnv = process.env): string {
  // npm sets npm_lifecycle_event for the script and every process it starts.
  return env.npm_lifecycle_event === 'start' ? `npm start (${command})` : command;
}

/**
 * Announces the devices of this running host (attached and paired: their ids and ports) in the
 * simulator index, so `home-agent sim` gives its devices other ids and another process that cannot
 * open a port can say which process holds it. `update` rewrites it when the devices change (only
 * when the ids or ports did); `close` withdraws it. A killed host's file is skipped by its pid.
 */
export async function announceHost(options: {
  command: string;
  devices: readonly { id: string; path: string }[];
  directory?: string;
}): Promise<{ update(devices: readonly { id: string; path: string }[]): Promise<void>; close(): Promise<void> }> {
  const directory = options.directory ?? simulatorIndexDirectory();
  const name = `host-${process.pid}.json`;
  let written = '';
  let closed = false;
  let queue: Promise<unknown> = Promise.resolve();
  const write = (devices: readonly { id: string; path: string }[]): Promise<void> => {
    const listed = devices
      .map(({ id, path }) => ({ id, path }))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const signature = JSON.stringify(listed);
    if (signature === written) return Promise.resolve();
    written = signature;
    // One write at a time, in order: the last one states the devices now.
    const next = queue.then(() =>
      closed
        ? undefined
        : writeAnnouncement({
            directory,
            name,
            content: { pid: process.pid, command: options.command, devices: listed },
          }),
    );
    queue = next.catch(() => undefined);
    return next.then(() => undefined);
  };
  await write(options.devices);
  return {
    update: write,
    close: async () => {
      closed = true;
      await queue;
      await rm(join(directory, name), { force: true });
    },
  };
}

/** The announcements of the hosts running now, other than this process. Never throws. */
export async function listAnnouncedHosts(options: { directory?: string } = {}): Promise<HostAnnouncement[]> {
  const hosts = await readLiveAnnouncements({
    directory: options.directory ?? simulatorIndexDirectory(),
    pattern: HOST_FILE,
    schema: hostAnnouncementSchema,
  });
  return hosts.filter((host) => host.pid !== process.pid);
}
