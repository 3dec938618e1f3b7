import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The socket's file name inside the data folder. */
export const LINK_FILE = 'host.sock';

/** The longest path a Unix socket takes on Linux (sun_path is 108 bytes with its terminating zero). */
export const MAX_SOCKET_PATH_BYTES = 107;

/**
 * Where the running host of a data folder listens: `host.sock` in the data folder, or — when that
 * path is too long for a Unix socket — a file named by the folder's hash in the user's runtime folder
 * (`XDG_RUNTIME_DIR`, else `$TMPDIR/home-agent-<uid>`), which every process of the home computes alike.
 */
export function linkPathOf(dataDir: string, env: NodeJS.ProcessEnv = process.env): { path: string; folder: string } {
  const inData = join(dataDir, LINK_FILE);
  if (Buffer.byteLength(inData) <= MAX_SOCKET_PATH_BYTES) return { path: inData, folder: dataDir };
  const folder = env.XDG_RUNTIME_DIR
    ? join(env.XDG_RUNTIME_DIR, 'home-agent')
    : join(tmpdir(), `home-agent-${process.getuid?.() ?? 'user'}`);
  const name = `${createHash('sha256').update(dataDir).digest('hex').slice(0, 24)}.sock`;
  return { path: join(folder, name), folder };
}
