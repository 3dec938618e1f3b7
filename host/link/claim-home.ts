import { z } from 'zod';
import { linkPathOf } from './link-path.ts';
import { openLinkDoor } from './find-home-holder.ts';
import { HomeHeldError } from './hold-home-link.ts';
import { readFirstLine } from './link-lines.ts';

const TAKE_WAIT_MS = 30_000;

/**
 * Before a window's host (serve, the desktop window) opens the home: when a tool server's process hosts it
 * (it started first), takes it over — that process closes its devices and relays its client through
 * this host from then on. Says which in `log`. A home another window serves is HomeHeldError.
 */
export async function claimHome(options: {
  dataDir: string;
  command: string;
  log: (line: string) => void;
}): Promise<void> {
  const { path } = linkPathOf(options.dataDir);
  const opened = await openLinkDoor(path, 'take', { command: options.command });
  if (!opened) return;
  const { socket, welcome } = opened;
  try {
    if (!welcome.ok) throw new HomeHeldError(welcome.holder);
    const released = z
      .object({ released: z.literal(true) })
      .safeParse(JSON.parse(await readFirstLine(socket, TAKE_WAIT_MS)));
    if (!released.success)
      throw new Error(`${welcome.holder.command} (pid ${welcome.holder.pid}) did not hand the home over`);
    options.log(
      `took this home over from ${welcome.holder.command} (pid ${welcome.holder.pid}): it closed its devices, and the client it serves now goes through this host`,
    );
  } finally {
    socket.destroy();
  }
}
