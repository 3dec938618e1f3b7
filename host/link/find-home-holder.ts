import { connect, type Socket } from 'node:net';
import { linkWelcomeSchema, type LinkDoorName, type LinkHolder, type LinkWelcome } from './link-messages.ts';
import { readFirstLine, writeLine } from './link-lines.ts';

/** Who this process is, as its hello says. */
export interface LinkCaller {
  command: string;
}

/**
 * Opens `door` of the host listening at `path`: the connected socket and the host's welcome, or
 * undefined when no host answers there (no file, or a file its host left behind). A host that
 * answers but refuses the door resolves with its refusal, so the caller can say why.
 */
export async function openLinkDoor(
  path: string,
  door: LinkDoorName,
  caller: LinkCaller,
): Promise<{ socket: Socket; welcome: LinkWelcome } | undefined> {
  const socket = await connectOrUndefined(path);
  if (!socket) return undefined;
  writeLine(socket, { link: 'home-agent', version: 1, door, pid: process.pid, command: caller.command });
  try {
    const parsed = linkWelcomeSchema.safeParse(JSON.parse(await readFirstLine(socket)));
    if (!parsed.success) throw new Error('the process on the home socket is not a Home Agent host');
    return { socket, welcome: parsed.data };
  } catch (error) {
    socket.destroy();
    throw error;
  }
}

/** The host that answers at `path`, or undefined (none there, or it is gone). */
export async function findHomeHolder(path: string): Promise<LinkHolder | undefined> {
  const opened = await openLinkDoor(path, 'api', { command: 'home-agent (looking for the host)' }).catch(
    () => undefined,
  );
  if (!opened) return undefined;
  opened.socket.destroy();
  return opened.welcome.holder;
}

function connectOrUndefined(path: string): Promise<Socket | undefined> {
  return new Promise((resolve, reject) => {
    const socket = connect(path);
    socket.once('connect', () => {
      socket.off('error', onError);
      resolve(socket);
    });
    const onError = (error: NodeJS.ErrnoException): void => {
      // No file, or a file nobody listens on: no host.
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED' || error.code === 'ENOTSOCK') resolve(undefined);
      else reject(error);
    };
    socket.once('error', onError);
  });
}
