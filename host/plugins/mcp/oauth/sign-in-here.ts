import type { SignInStart } from '../../plugin-part.ts';
import type { McpConnection } from '../mcp-connection.ts';
import type { McpOAuth } from './mcp-oauth.ts';

/** One server's plugin, as signing in here needs it. */
interface SigningIn {
  plugin: string;
  /** Its sign-in; absent for a server that does not sign in (stdio). */
  oauth: McpOAuth | undefined;
  connection: McpConnection;
  enabled: boolean;
}

/**
 * Starts the person's sign-in to a server in this host (the terminal's `plugins login` while this host
 * holds the home), so the tokens are kept where this host keeps them and the server is used as soon as
 * the browser comes back: the address the Plugins tab shows when a sign-in is waiting already, else a
 * new one; none when the server accepts the sign-in kept (or its tokens were renewed without the person).
 */
export async function signInHere(
  options: SigningIn & { changed: () => void },
): Promise<SignInStart | { refused: string }> {
  const { plugin, oauth, connection } = options;
  if (oauth === undefined) return { refused: notSigningIn(plugin) };
  if (!options.enabled) return { refused: `${plugin} is turned off here: turn it on in the Plugins tab, then sign in` };
  // Starting: its own first request may be asking for sign-in now; one sign-in, not two racing.
  if (connection.status === 'connecting') await connection.whenSettled();
  if (connection.status === 'ready') return { keptIn: oauth.keptIn };
  const waiting = connection.signIn()?.url;
  if (waiting !== undefined) return { url: waiting, keptIn: oauth.keptIn };
  const url = await oauth.begin();
  options.changed();
  if (url !== '') return { url, keptIn: oauth.keptIn };
  await connection.stop();
  connection.start();
  return { keptIn: oauth.keptIn };
}

/** Signs out of a server in this host: its tokens go, and it starts again (asking for sign-in) if its plugin is on. */
export async function signOutHere(options: SigningIn): Promise<{ removed: boolean } | { refused: string }> {
  const { oauth, connection } = options;
  if (oauth === undefined) return { refused: notSigningIn(options.plugin) };
  const removed = oauth.signOut();
  if (options.enabled) {
    await connection.stop();
    connection.start();
  }
  return { removed };
}

/**
 * A sign-in completed while the server was down for another reason (waiting to start again): start it
 * now, signed in. (While it waits for sign-in, the connection starts again by itself.)
 */
export function restartWhenSignedIn(oauth: McpOAuth | undefined, connection: McpConnection): void {
  oauth?.onSignedIn(() => {
    if (connection.status === 'failed') void connection.stop().then(() => connection.start());
  });
}

function notSigningIn(plugin: string): string {
  return `${plugin} does not sign in: only a Streamable HTTP server does`;
}
