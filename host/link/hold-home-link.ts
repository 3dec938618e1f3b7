import { chmod, lstat, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { ensurePrivateDirectory } from '../../devices/simulator/private-directory.ts';
import { otherOwner } from '../../devices/files/file-kind.ts';
import { linkPathOf } from './link-path.ts';
import { linkHelloSchema, type LinkDoorName, type LinkHello, type LinkHolder } from './link-messages.ts';
import { readFirstLine, writeLine } from './link-lines.ts';
import { findHomeHolder } from './find-home-holder.ts';

/** Serves one connection that came through a door, after its welcome; resolves when it is done. */
export type LinkDoor = (socket: Socket, hello: LinkHello) => Promise<void> | void;

/** A home's socket, held by this process. */
export interface HeldHomeLink {
  path: string;
  /**
   * Stops listening, removes the socket file and ends every connection (their doors end their work
   * honestly) but `keep` (a connection still to be answered, e.g. the one that takes the home).
   */
  close(options?: { keep?: Socket }): Promise<void>;
}

/** Another host holds the home: who, so the person can be told. */
export class HomeHeldError extends Error {
  override readonly name = 'HomeHeldError';
  constructor(readonly holder: LinkHolder) {
    super(`this home is already served by ${holder.command} (pid ${holder.pid})`);
  }
}

/**
 * Makes this process the host of the data folder's home: listens on its socket (owner-only: the
 * folder is the user's own and 0700, the socket 0600), answering each connection's first line with
 * a welcome and handing it to its door. A socket left by a host that is gone is removed. When a live
 * host holds it, HomeHeldError names it (taking a home from an `mcp` host is the caller's, through
 * the `take` door, before calling this).
 */
export async function holdHomeLink(options: {
  dataDir: string;
  holder: LinkHolder;
  doors: Partial<Record<LinkDoorName, LinkDoor>>;
  log: (line: string) => void;
}): Promise<HeldHomeLink> {
  const { path, folder } = linkPathOf(options.dataDir);
  if (folder !== options.dataDir) await ensurePrivateDirectory(folder);
  else await checkOwnFolder(folder);
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    void welcome(socket, options).catch(() => socket.destroy());
  });
  await listenReplacingStale(server, path);
  await chmod(path, 0o600);
  let closed: Promise<void> | undefined;
  return {
    path,
    close: (closeOptions) =>
      (closed ??= (async () => {
        // Stops accepting at once; its callback would wait for the connection kept open.
        server.close();
        await rm(path, { force: true });
        for (const socket of sockets) if (socket !== closeOptions?.keep) socket.end();
      })()),
  };
}

async function welcome(
  socket: Socket,
  options: { holder: LinkHolder; doors: Partial<Record<LinkDoorName, LinkDoor>>; log: (line: string) => void },
): Promise<void> {
  const parsed = linkHelloSchema.safeParse(safeJson(await readFirstLine(socket)));
  if (!parsed.success) {
    writeLine(socket, { ok: false, holder: options.holder, error: 'the first line is not a Home Agent hello' });
    socket.end();
    return;
  }
  const door = options.doors[parsed.data.door];
  if (!door) {
    writeLine(socket, {
      ok: false,
      holder: options.holder,
      error: `${options.holder.command} does not serve '${parsed.data.door}' to other processes`,
    });
    socket.end();
    return;
  }
  writeLine(socket, { ok: true, holder: options.holder });
  await door(socket, parsed.data);
}

function safeJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

/** Listens at `path`; a socket file nobody answers on (its host is gone) is removed first. */
async function listenReplacingStale(server: Server, path: string): Promise<void> {
  const listen = (): Promise<void> =>
    new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, () => {
        server.off('error', reject);
        resolve();
      });
    });
  try {
    await listen();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    const holder = await findHomeHolder(path);
    if (holder) throw new HomeHeldError(holder);
    const stats = await lstat(path);
    if (!stats.isSocket())
      throw new Error(`${path} is not a socket: move it aside, then start again`, { cause: error });
    await rm(path, { force: true });
    await listen();
  }
}

async function checkOwnFolder(folder: string): Promise<void> {
  const stats = await lstat(folder);
  const other = otherOwner(stats);
  if (other !== undefined)
    throw new Error(
      `${folder} belongs to another user (uid ${other.owner}): Home Agent serves a home only from a data folder of your own`,
    );
}
